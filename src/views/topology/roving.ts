// Keyboard for the machine drawing: one Tab stop (the selected CPU, or the
// open node), arrow keys move focus between the drawn cells in reading order,
// Home / End to the first / last, Enter or Space acts as a click. The keys
// the drawing uses are not passed on to the lab's shortcuts (arrows step the
// simulation elsewhere).
import type { KeyboardEvent } from 'react';

const CELLS = '.cpu-cell, .node-cell';

export function onCellsKeyDown(e: KeyboardEvent<SVGSVGElement>): void {
  const target = e.target as Element;
  const cell = target.closest?.(CELLS);
  if (!cell) return;
  if (e.key === 'Enter' || e.key === ' ') {
    e.preventDefault();
    e.stopPropagation();
    cell.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    return;
  }
  const cells = Array.from(e.currentTarget.querySelectorAll<SVGGElement>(CELLS));
  const i = cells.indexOf(cell as SVGGElement);
  const to: Record<string, number> = {
    ArrowRight: i + 1,
    ArrowDown: i + 1,
    ArrowLeft: i - 1,
    ArrowUp: i - 1,
    Home: 0,
    End: cells.length - 1,
  };
  if (!(e.key in to)) return;
  e.preventDefault();
  e.stopPropagation();
  const next = cells[Math.max(0, Math.min(cells.length - 1, to[e.key]))];
  next?.focus();
}
