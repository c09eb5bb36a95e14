"""axe-core, Deque's accessibility engine, run in a page the browser tests opened.

The script is the copy that the PyPI package ``axe-playwright-python`` ships
(requirements-dev.txt pins it): nothing is downloaded while the tests run.
"""

from __future__ import annotations

from axe_playwright_python.base import AXE_SCRIPT

#: The impacts a page may not have: a person who cannot see, or cannot tell the colours
#: apart, or uses only the keyboard is stopped or badly slowed by them.
BLOCKING = ("serious", "critical")

# Rules from WCAG 2.x A and AA, and axe's best practices (landmarks, one main, headings).
RUN = """
async () => {
  const results = await axe.run(document, {
    runOnly: {
      type: "tag",
      values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    },
    resultTypes: ["violations"],
  });
  return results.violations.map((rule) => ({
    id: rule.id, impact: rule.impact, help: rule.help,
    nodes: rule.nodes.map((node) => ({
      target: node.target.join(" "), summary: node.failureSummary,
    })),
  }));
}
"""


def blocking_violations(page) -> list[str]:
    """The serious and critical axe-core violations on the page as it stands, one line each:
    the rule, what it asks, and the elements that break it."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    found = []
    for rule in page.evaluate(RUN):
        if rule["impact"] not in BLOCKING:
            continue
        where = "; ".join(
            f"{node['target']} ({' '.join(node['summary'].split())[:160]})"
            for node in rule["nodes"][:4]
        )
        more = len(rule["nodes"]) - 4
        found.append(
            f"{rule['id']} ({rule['impact']}): {rule['help']}: {where}"
            + (f" and {more} more" if more > 0 else "")
        )
    return found
