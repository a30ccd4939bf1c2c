// A runqueue as a plain list, for queues too large to read as a tree: the
// tree's entities in order (leftmost first — the order CFS would pick them),
// with vruntime, weight and node colour. Names are text nodes.
import type { TreeNode, TreeView } from '../engine/types';
import { fmtMs, taskColor } from './colors';
import { useT } from '../i18n/i18n';
import { Shown } from './shown';

/** Rows drawn at most; the count of the rest is shown. */
const MAX_ROWS = 200;

/** In-order walk of the engine's tree (iterative: a hostile shape cannot overflow the stack). */
export function inOrder(tree: TreeView): TreeNode[] {
  const byId = new Map(tree.nodes.map((n) => [n.pid, n]));
  const out: TreeNode[] = [];
  const stack: TreeNode[] = [];
  let cur = tree.root === null ? undefined : byId.get(tree.root);
  while ((cur || stack.length > 0) && out.length < tree.nodes.length) {
    while (cur) {
      stack.push(cur);
      cur = cur.left === null ? undefined : byId.get(cur.left);
    }
    const n = stack.pop() as TreeNode;
    out.push(n);
    cur = n.right === null ? undefined : byId.get(n.right);
  }
  return out;
}

export function RqList(props: { tree: TreeView; minVruntime: number }) {
  const t = useT();
  const rows = inOrder(props.tree);
  const shown = rows.slice(0, MAX_ROWS);
  return (
    <div className="rq-list-box" tabIndex={0} role="region" aria-label={t('a11y.rqList')}>
      <table className="rq-list" data-testid="rq-list">
        <thead>
          <tr>
            <th>#</th>
            <th>{t('rqlist.entity')}</th>
            <th>{t('rqlist.vruntime')}</th>
            <th title="vruntime − min_vruntime">{t('rqlist.lag')}</th>
            <th>{t('rqlist.weight')}</th>
            <th>{t('rqlist.node')}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((n, i) => (
            <tr key={n.pid} data-testid="rq-row">
              <td>{i + 1}</td>
              <td>
                <span className="swatch" style={{ background: n.group === null ? taskColor(n.pid) : '#9aa5b1' }} />
                <Shown text={n.name} />
                {n.group !== null && <span className="meta"> {t('rqlist.group')}</span>}
              </td>
              <td>{fmtMs(n.vruntime)}</td>
              <td>{fmtMs(n.vruntime - props.minVruntime)}</td>
              <td>{n.weight}</td>
              <td className={n.red ? 'red' : 'black'}>{n.red ? t('rqlist.red') : t('rqlist.black')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > shown.length && <p className="meta">{t('rqlist.more', { n: rows.length - shown.length })}</p>}
    </div>
  );
}
