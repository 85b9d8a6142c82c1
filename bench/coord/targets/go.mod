module cgofuzzbench

go 1.22
