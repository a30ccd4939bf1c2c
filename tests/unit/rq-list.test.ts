// The runqueue list walks the engine's tree in order (leftmost first).
import { describe, expect, it } from 'vitest';
import { inOrder } from '../../src/views/rq-list';
import type { TreeNode } from '../../src/engine/types';

const node = (pid: number, vruntime: number, left: number | null, right: number | null): TreeNode => ({
  pid,
  name: `t${pid}`,
  vruntime,
  weight: 1024,
  red: false,
  left,
  right,
  group: null,
});

describe('runqueue list', () => {
  it('lists a tree in vruntime order', () => {
    //        2(20)
    //   1(10)     4(40)
    //           3(30)
    const nodes = [node(2, 20, 1, 4), node(1, 10, null, null), node(4, 40, 3, null), node(3, 30, null, null)];
    expect(inOrder({ root: 2, nodes }).map((n) => n.vruntime)).toEqual([10, 20, 30, 40]);
    expect(inOrder({ root: null, nodes: [] })).toEqual([]);
  });

  it('stops on a malformed (cyclic) tree instead of looping', () => {
    const nodes = [node(1, 10, null, 2), node(2, 20, null, 1)];
    expect(inOrder({ root: 1, nodes }).length).toBeLessThanOrEqual(2);
  });
});
