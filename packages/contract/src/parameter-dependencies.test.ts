import { describe, expect, it } from 'vitest';
import { cycleMessage, dependencyCycle, dependencyRefusal, type DependencyNode } from './parameter-dependencies.ts';
import { parameterDefinitionsSchema } from './parameters.ts';

// The one rule for dependent dropdowns, as the schema (the server) and the portal (its greyed choices) use it.

const fromSource = (name: string, dependsOn: string[] = []) => ({
  name,
  type: 'string' as const,
  allowedValues: { kind: 'dataSource' as const, dataSourceId: 9, valueColumn: 'v', labelColumn: 'l', dependsOn },
});

describe('parameter dependencies', () => {
  it('find a cycle through any number of parameters, and none in a chain', () => {
    const chain: DependencyNode[] = [
      fromSource('region'),
      fromSource('country', ['region']),
      fromSource('city', ['country']),
    ];
    expect(dependencyCycle(chain)).toBeUndefined();
    const loop = [fromSource('region', ['city']), fromSource('country', ['region']), fromSource('city', ['country'])];
    expect(dependencyCycle(loop)).toEqual(['region', 'city', 'country', 'region']);
    expect(dependencyCycle([fromSource('a', ['b']), fromSource('b', ['a'])])).toEqual(['a', 'b', 'a']);
    expect(dependencyCycle([{ name: 'plain', allowedValues: { kind: 'fixed' } }])).toBeUndefined();
  });

  it('say why a parent may not be chosen: itself, or one that already depends on the parameter', () => {
    const defs = [fromSource('region'), fromSource('country', ['region']), fromSource('city', ['country'])];
    expect(dependencyRefusal(defs, 'region', 'region')).toBe('a parameter cannot depend on itself');
    expect(dependencyRefusal(defs, 'region', 'city')).toBe(cycleMessage(['region', 'city', 'country', 'region']));
    expect(dependencyRefusal(defs, 'region', 'country')).toMatch(/^region → country → region would make a cycle/);
    expect(dependencyRefusal(defs, 'city', 'region')).toBeUndefined();
  });

  it('are refused by the definitions schema with the same words, at the first parameter of the cycle', () => {
    const result = parameterDefinitionsSchema.safeParse([fromSource('a', ['b']), fromSource('b', ['a'])]);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['0.allowedValues.dependsOn', cycleMessage(['a', 'b', 'a'])],
    ]);
    expect(parameterDefinitionsSchema.safeParse([fromSource('a'), fromSource('b', ['a'])]).success).toBe(true);
  });
});
