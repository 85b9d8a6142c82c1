"""junit_check.py REPORT SCHEMA: reads a JUnit XML report the way CI tools
do, with the junitparser package (and lxml, validating it against SCHEMA,
the Jenkins junit-10.xsd), and prints what it read as JSON:

  {"suites": [{"name", "tests", "failures", "errors", "skipped",
               "cases": [{"name", "classname", "time",
                          "results": [{"kind", "message", "type", "text"}],
                          "system_out"}]}],
   "schema_errors": [...]}

It is a separate script because the Debian packages python3-junitparser
and python3-lxml are installed for /usr/bin/python3, which need not be the
python3 running pytest; tests/cli/campaign runs it with an interpreter that has
them (or skips, naming them)."""
import json
import sys

import junitparser
from lxml import etree


def main(report, schema):
    xsd = etree.XMLSchema(etree.parse(schema))
    doc = etree.parse(report)
    ok = xsd.validate(doc)
    errors = [] if ok else [str(e) for e in xsd.error_log]
    xml = junitparser.JUnitXml.fromfile(report)
    suites = xml if isinstance(xml, junitparser.JUnitXml) else [xml]
    out = []
    for s in suites:
        cases = []
        for c in s:
            res = []
            for r in c.result:
                res.append({"kind": type(r).__name__, "message": r.message,
                            "type": r.type, "text": r.text})
            cases.append({"name": c.name, "classname": c.classname,
                          "time": c.time, "results": res,
                          "system_out": c.system_out})
        out.append({"name": s.name, "tests": s.tests, "failures": s.failures,
                    "errors": s.errors, "skipped": s.skipped,
                    "cases": cases})
    json.dump({"suites": out, "schema_errors": errors}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
