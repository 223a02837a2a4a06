"""`python -m wiki.checks [checker ...]`: run the checks, print `path:line: checker: message`, exit 1 on any."""

from __future__ import annotations

import argparse
import sys

from wiki.checks import claims_fix, run_all, site_checkers, source_checkers
from wiki.checks.project import Project

NAMES = [*source_checkers(), "build", *site_checkers()]


def main(argv: list[str] | None = None) -> int:
    """Run the checks named on the command line (all by default); return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m wiki.checks", description=__doc__)
    parser.add_argument("only", nargs="*", metavar="checker", help=f"run only these ({', '.join(NAMES)}); default: all")
    parser.add_argument("--fix-claims", action="store_true", help="first write into claims.yml the numbers corrected "
                        "in the prose of every language that the calculator agrees with (wiki/checks/claims_fix.py)")
    args = parser.parse_args(argv)
    unknown = [name for name in args.only if name not in NAMES]
    if unknown:
        parser.error(f"unknown checker {', '.join(unknown)}; known: {', '.join(NAMES)}")
    if args.fix_claims:
        for proposal in claims_fix.apply(Project()):
            if proposal.texts:
                print(f"claims.yml:{proposal.line}: claim '{proposal.claim}': text updated to "
                      + "; ".join(f"{lang}: “{text}”" for lang, text in proposal.texts.items()))
            else:
                print(f"claims.yml:{proposal.line}: claim '{proposal.claim}': not updated: {proposal.reason}")
    findings = run_all(only=args.only)
    for finding in findings:
        print(finding)
    if findings:
        print(f"\n{len(findings)} finding(s). Each line is file:line: checker: what to do. "
              "CONTRIBUTING.md explains each checker.", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
