// The control closure and the independence rule as pure functions: direct and transitive control, a common
// controller, cycles, and the shortcuts (who is not independent of a requester, the largest independent group)
// against brute force on seeded random graphs.
import { describe, expect, it } from 'vitest';
import { random } from '@/test/random';
import {
  allIndependent,
  type ControlGraph,
  controlSet,
  firstConflict,
  largestIndependentGroup,
  notIndependentOf,
} from './independence';

/** `subject <- controller` pairs. */
const graphOf = (edges: Array<[string, string]>): ControlGraph => {
  const graph = new Map<string, Set<string>>();
  for (const [subject, controller] of edges)
    graph.set(subject, new Set([...(graph.get(subject) ?? []), controller]));
  return graph;
};

describe('the control closure', () => {
  const graph = graphOf([
    ['x', 'a'], // a asked for x
    ['y', 'x'], // x asked for y
    ['f1', 'a'],
    ['f2', 'a'],
    ['token:t', 'y'], // y was shown the token's secret
  ]);

  it('follows control through a chain', () => {
    expect(controlSet(graph, 'token:t')).toEqual(new Set(['token:t', 'y', 'x', 'a']));
    expect(controlSet(graph, 'b')).toEqual(new Set(['b']));
  });

  it('refuses either direction and a common controller; accepts strangers', () => {
    expect(firstConflict(graph, 'y', ['a'])).toEqual({ other: 'a', shared: 'a' });
    expect(firstConflict(graph, 'a', ['y'])).toMatchObject({ other: 'y' });
    expect(firstConflict(graph, 'f1', ['f2'])).toEqual({ other: 'f2', shared: 'a' });
    expect(firstConflict(graph, 'b', ['token:t'])).toBeNull();
    expect(firstConflict(graph, 'f1', ['token:t'])).toMatchObject({ shared: 'a' });
    expect(allIndependent(graph, ['a', 'b', 'c'])).toBe(true);
    expect(allIndependent(graph, ['b', 'f1', 'x'])).toBe(false);
  });

  it('ends on a cycle', () => {
    const cyclic = graphOf([
      ['p', 'q'],
      ['q', 'p'],
    ]);
    expect(controlSet(cyclic, 'p')).toEqual(new Set(['p', 'q']));
    expect(notIndependentOf(cyclic, 'p')).toEqual(new Set(['p', 'q']));
  });
});

describe('the shortcuts agree with brute force', () => {
  it('on 300 seeded random graphs', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = random(seed);
      const ids = Array.from({ length: 3 + Math.floor(rand() * 8) }, (_, i) => `u${i}`);
      const edges: Array<[string, string]> = [];
      for (const subject of ids)
        for (const controller of ids)
          if (subject !== controller && rand() < 0.15) edges.push([subject, controller]);
      const graph = graphOf(edges);
      for (const id of ids) {
        const brute = new Set(
          ids.filter((other) => firstConflict(graph, other, [id]) !== null || other === id),
        );
        expect(notIndependentOf(graph, id), `seed ${seed}, ${id}`).toEqual(brute);
      }
      let best = 0;
      for (let mask = 0; mask < 1 << ids.length; mask++) {
        const chosen = ids.filter((_, i) => mask & (1 << i));
        if (chosen.length > best && allIndependent(graph, chosen)) best = chosen.length;
      }
      expect(largestIndependentGroup(graph, ids), `seed ${seed}`).toBe(best);
      expect(largestIndependentGroup(graph, ids, 2)).toBe(Math.min(best, 2));
    }
  });
});
