// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time per function,
// and self/inclusive time per owner (npm package, node core, our code), optionally only inside a window.

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface TimeShare {
  name: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  sampledMs: number;
  idleMs: number;
  topFunctions: TimeShare[];
  selfByOwner: TimeShare[];
  /** Time with the owner anywhere on the stack (so a package's callees count towards it). */
  inclusiveByOwner: TimeShare[];
  /** Time with the function anywhere on the stack: which calls the self time happens under. */
  inclusiveFunctions: TimeShare[];
}

const SPECIAL = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

export function ownerOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (url === '') return SPECIAL.has(functionName) ? functionName : '(native)';
  const packageMatch = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (packageMatch) return packageMatch[1]!;
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const ours = /\/(apps\/[^/]+|packages\/[^/]+)\/src\/(.*)$/.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : url;
}

const label = ({ functionName, url, lineNumber }: ProfileNode['callFrame']): string =>
  url
    ? `${functionName || '(anonymous)'} ${ownerOf({ functionName, url, lineNumber })}:${lineNumber + 1}`
    : functionName || '(anonymous)';

const shares = (totals: Map<string, number>, all: number, limit: number): TimeShare[] =>
  [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, micros]) => ({
      name,
      ms: Math.round(micros / 1000),
      percent: Math.round((micros / all) * 1000) / 10,
    }));

export function summarizeProfile(profile: CpuProfile, window?: [number, number], limit = 25): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const functions = new Map<string, number>();
  const selfOwners = new Map<string, number>();
  const inclusiveOwners = new Map<string, number>();
  const inclusiveFunctions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  let time = profile.startTime;
  let sampled = 0;
  let idle = 0;
  profile.samples.forEach((nodeId, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    time += micros;
    if (window && (time < window[0] || time > window[1])) return;
    const node = nodes.get(nodeId);
    if (!node) return;
    sampled += micros;
    if (node.callFrame.functionName === '(idle)') {
      idle += micros;
      return;
    }
    add(functions, label(node.callFrame), micros);
    add(selfOwners, ownerOf(node.callFrame), micros);
    const ownersOnStack = new Set<string>();
    const functionsOnStack = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parents.get(id)) {
      const frame = nodes.get(id)?.callFrame;
      if (!frame || frame.functionName === '(root)') continue;
      ownersOnStack.add(ownerOf(frame));
      if (frame.functionName !== '') functionsOnStack.add(label(frame));
    }
    for (const owner of ownersOnStack) add(inclusiveOwners, owner, micros);
    for (const name of functionsOnStack) add(inclusiveFunctions, name, micros);
  });
  const busy = sampled - idle;
  return {
    sampledMs: Math.round(sampled / 1000),
    idleMs: Math.round(idle / 1000),
    topFunctions: shares(functions, busy, limit),
    selfByOwner: shares(selfOwners, busy, limit),
    inclusiveByOwner: shares(inclusiveOwners, busy, limit),
    inclusiveFunctions: shares(inclusiveFunctions, busy, limit * 2),
  };
}
