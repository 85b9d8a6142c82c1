#!/usr/bin/env python3
"""tally.py CTEST_JUNIT PYTEST_DIR [LABEL]: the closing "N passed, N failed, N
skipped" line of one ctest run, counting each case once.

ctest's own JUnit report (ctest --output-junit) has one entry per ctest
test. A ctest test that is a pytest suite (registered by cgofuzz_add_pytest)
also leaves PYTEST_DIR/<name>.xml; its cases replace its single entry, so a
suite of 30 cases counts 30. A suite that died before writing its report
counts as one failure. Skipped cases are listed with pytest's reason: a
missing tool is a visible skip, never a silent pass.
"""
import os
import sys
import xml.etree.ElementTree as ET


def cases(path):
    root = ET.parse(path).getroot()
    for tc in root.iter("testcase"):
        name = "%s::%s" % (tc.get("classname", ""), tc.get("name", ""))
        if tc.find("failure") is not None or tc.find("error") is not None:
            yield name, "failed", ""
        elif tc.find("skipped") is not None:
            sk = tc.find("skipped")
            yield name, "skipped", sk.get("message", "") or (sk.text or "")
        else:
            yield name, "passed", ""


def main():
    ctest_xml, pytest_dir = sys.argv[1], sys.argv[2]
    label = sys.argv[3] + ": " if len(sys.argv) > 3 else ""
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    skips, fails = [], []
    if not os.path.exists(ctest_xml):
        print("tally: %s is missing (ctest did not run)" % ctest_xml)
        print("0 passed, 1 failed")
        return 1
    for name, status, why in cases(ctest_xml):
        test = name.split("::", 1)[1]
        report = os.path.join(pytest_dir, test + ".xml")
        sub = list(cases(report)) if os.path.exists(report) else []
        if sub:
            if status == "failed" and not any(s == "failed" for _, s, _ in sub):
                # pytest passed its cases but ctest saw a failure (time-out, crash).
                sub.append((test + "::(suite)", "failed", ""))
            for n, s, w in sub:
                counts[s] += 1
                if s == "skipped":
                    skips.append((test + " " + n, w))
                elif s == "failed":
                    fails.append(test + " " + n)
        else:
            counts[status] += 1
            if status == "skipped":
                skips.append((test, why))
            elif status == "failed":
                fails.append(test)
    for n, w in skips:
        print("SKIPPED %s: %s" % (n, w.strip().splitlines()[0] if w.strip() else ""))
    for n in fails:
        print("FAILED  %s" % n)
    print("%s%d passed, %d failed, %d skipped"
          % (label, counts["passed"], counts["failed"], counts["skipped"]))
    return 1 if counts["failed"] or counts["passed"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
