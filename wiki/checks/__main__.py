"""`python -m wiki.checks [checker ...]`: run the checks, print `path:line: checker: message`, exit 1 on any."""

from __future__ import annotations

import argparse
import sys

from wiki.checks import run_all, site_checkers, source_checkers

NAMES = [*source_checkers(), "build", *site_checkers()]


def main(argv: list[str] | None = None) -> int:
    """Run the checks named on the command line (all by default); return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m wiki.checks", description=__doc__)
    parser.add_argument("only", nargs="*", metavar="checker", help=f"run only these ({', '.join(NAMES)}); default: all")
    args = parser.parse_args(argv)
    unknown = [name for name in args.only if name not in NAMES]
    if unknown:
        parser.error(f"unknown checker {', '.join(unknown)}; known: {', '.join(NAMES)}")
    findings = run_all(only=args.only)
    for finding in findings:
        print(finding)
    if findings:
        print(f"\n{len(findings)} finding(s). Each line is file:line: checker: what to do. "
              "CONTRIBUTING.md explains each checker.", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
