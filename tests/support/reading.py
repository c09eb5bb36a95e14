"""What a player must be able to read on a game page, measured in the page (issue 41)."""

# Each clock whole and uncovered inside its player's card and the screen (elementFromPoint
# at its text's corners), and every cell of every table fully shown, with no table
# scrolling sideways inside its wrapper. Returns one line per problem.
READ_IN_FULL = """
(slack) => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const px = (n) => n.toFixed(0);
  // Kept for screen readers only (a table's head laid out as labels on a phone): a 1 px box
  // that hides its overflow.
  const forScreenReaders = (el) => {
    for (let up = el; up; up = up.parentElement) {
      const box = up.getBoundingClientRect();
      const clips = getComputedStyle(up).overflow !== "visible";
      if (clips && (box.width <= 1 || box.height <= 1)) return true;
    }
    return false;
  };
  const shown = (el) => {
    if (el.closest("[hidden]") || forScreenReaders(el)) return false;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const textBox = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return range.getBoundingClientRect();
  };
  const inside = (inner, outer) =>
    inner.left >= outer.left - slack && inner.right <= outer.right + slack &&
    inner.top >= outer.top - slack && inner.bottom <= outer.bottom + slack;
  const name = (el) => {
    if (!el) return "nothing";
    const classes = typeof el.className === "string" ? el.className.trim().split(/\\s+/) : [];
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
      classes.filter(Boolean).map((c) => "." + c).join("");
  };
  // What clips an element sideways: the screen, and every ancestor hiding or scrolling overflow.
  const visibleArea = (el) => {
    let area = { left: 0, right: width };
    for (let up = el.parentElement; up; up = up.parentElement) {
      if (getComputedStyle(up).overflowX === "visible") continue;
      const box = up.getBoundingClientRect();
      area = { left: Math.max(area.left, box.left), right: Math.min(area.right, box.right) };
    }
    return area;
  };
  for (const clock of document.querySelectorAll("#players .clock")) {
    if (!shown(clock) || !clock.textContent.trim()) continue;
    clock.scrollIntoView({ block: "center" });
    const text = clock.textContent.trim();
    const box = textBox(clock);
    const card = clock.closest(".player-row").getBoundingClientRect();
    const spans = `x=${px(box.left)}..${px(box.right)}`;
    if (!inside(box, card)) {
      problems.push(`clock "${text}" spans ${spans}, its card ${px(card.left)}..${px(card.right)}`);
    }
    if (box.left < -slack || box.right > width + slack) {
      problems.push(`clock "${text}" runs off the screen (${spans})`);
    }
    const corners = [[box.left + 1, box.top + 1], [box.right - 1, box.top + 1],
      [box.left + 1, box.bottom - 1], [box.right - 1, box.bottom - 1]];
    for (const [x, y] of corners) {
      const top = document.elementFromPoint(x, y);
      if (!top || !(top === clock || clock.contains(top))) {
        problems.push(`clock "${text}" is covered at (${px(x)}, ${px(y)}) by ${name(top)}`);
        break;
      }
    }
  }
  for (const table of document.querySelectorAll("main table")) {
    if (!shown(table)) continue;
    const wrap = table.closest(".table-wrap");
    if (wrap && wrap.scrollWidth > wrap.clientWidth + slack) {
      problems.push(`table ${name(table)} scrolls sideways ` +
        `(${wrap.scrollWidth} px in ${wrap.clientWidth})`);
    }
    for (const cell of table.querySelectorAll("th, td")) {
      const text = cell.textContent.replace(/\\s+/g, " ").trim();
      if (!text || !shown(cell)) continue;
      const box = textBox(cell);
      const area = visibleArea(cell);
      const right = Math.min(area.right, cell.getBoundingClientRect().right);
      if (box.left < area.left - slack || box.right > right + slack) {
        problems.push(`table ${name(table)}: "${text.slice(0, 30)}" is cut off ` +
          `(x=${px(box.left)}..${px(box.right)}, shown ${px(area.left)}..${px(right)})`);
      }
    }
  }
  return problems;
}
"""
