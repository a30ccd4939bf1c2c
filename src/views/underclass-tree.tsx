// Group Identity's second tree: underclass entities wait in their own
// red-black tree, picked only when the normal tree has nothing runnable.
// Drawn beside the normal tree with a label saying so.
import type { TreeView } from '../engine/types';
import { useT } from '../i18n/i18n';
import { TreeDiagram } from './tree-diagram';

export function UnderclassTree(props: { tree: TreeView; cpu: number; small?: boolean }) {
  const t = useT();
  const { tree } = props;
  return (
    <div
      className={props.small ? 'under-tree small' : 'under-tree'}
      data-testid={props.small ? 'under-group-tree' : 'under-tree'}
    >
      <div className="gi-label">
        <b>{t('rqpolicy.giUnder')}</b> · {t('rqpolicy.giUnderCount', { n: tree.nodes.length })}
        {!props.small && <span className="hint"> — {t('rqpolicy.giUnderHint')}</span>}
      </div>
      {tree.nodes.length === 0 ? (
        <p className="empty">{t('rqpolicy.giUnderEmpty')}</p>
      ) : (
        <TreeDiagram
          tree={tree}
          testId={props.small ? 'under-group-svg' : 'under-svg'}
          nodeTestId="rb-under-node"
          label={t('rqpolicy.giUnderLabel', { cpu: props.cpu })}
          minWidth={props.small ? 180 : 320}
          scale={props.small ? 0.7 : 1}
        />
      )}
    </div>
  );
}
