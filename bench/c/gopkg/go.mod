module example.com/cgofuzzbench

go 1.21
