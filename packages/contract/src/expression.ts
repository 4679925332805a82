// The computed-column language's syntax: a tiny tokenizer and parser, no eval, no Function. Columns by bare name
// or "quoted name", 'text' literals, numbers, + - * / %, parentheses, and the functions below. It lives in the
// contract so that the rule schema (transformations.ts) checks an expression wherever the schema runs: the
// server's request validation, the engine, the portal. The engine evaluates the tree (engine expression.ts).

export type Expr =
  | { k: 'num'; v: number }
  | { k: 'str'; v: string }
  | { k: 'lit'; v: null | boolean }
  | { k: 'col'; name: string }
  | { k: 'neg'; e: Expr }
  | { k: 'bin'; op: '+' | '-' | '*' | '/' | '%'; l: Expr; r: Expr }
  | { k: 'call'; fn: FunctionName; args: Expr[] };

const functions = {
  concat: [1, 64],
  upper: [1, 1],
  lower: [1, 1],
  coalesce: [1, 64],
  trim: [1, 1],
  length: [1, 1],
  round: [1, 2],
  abs: [1, 1],
} as const;
export type FunctionName = keyof typeof functions;

type Token =
  | { t: 'num'; v: number }
  | { t: 'str'; v: string }
  | { t: 'id'; v: string }
  | { t: 'qid'; v: string }
  | { t: 'op'; v: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) i += 1;
    else if (/[0-9.]/.test(ch)) {
      const m = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i));
      if (!m) throw new Error(`Unexpected character ${ch} in the expression`);
      tokens.push({ t: 'num', v: Number(m[0]) });
      i += m[0].length;
    } else if (ch === "'" || ch === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new Error('Unterminated quote in the expression');
        const doubled = text[j] === ch && text[j + 1] === ch;
        if (!doubled && text[j] === ch) break;
        value += text[j];
        j += doubled ? 2 : 1;
      }
      tokens.push(ch === "'" ? { t: 'str', v: value } : { t: 'qid', v: value });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i))!;
      tokens.push({ t: 'id', v: m[0] });
      i += m[0].length;
    } else if ('+-*/%(),'.includes(ch)) {
      tokens.push({ t: 'op', v: ch });
      i += 1;
    } else throw new Error(`Unexpected character ${ch} in the expression`);
  }
  return tokens;
}

class Parser {
  #tokens: Token[];
  #at = 0;
  #depth = 0;
  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }
  #peekOp(...ops: string[]): string | undefined {
    const token = this.#tokens[this.#at];
    return token?.t === 'op' && ops.includes(token.v) ? token.v : undefined;
  }
  #expect(op: string): void {
    if (!this.#peekOp(op)) throw new Error(`Expected ${op} in the expression`);
    this.#at += 1;
  }
  parseAll(): Expr {
    const expr = this.additive();
    if (this.#at < this.#tokens.length) throw new Error('Unexpected text at the end of the expression');
    return expr;
  }
  additive(): Expr {
    let left = this.multiplicative();
    for (let op = this.#peekOp('+', '-'); op; op = this.#peekOp('+', '-')) {
      this.#at += 1;
      left = { k: 'bin', op: op as '+' | '-', l: left, r: this.multiplicative() };
    }
    return left;
  }
  multiplicative(): Expr {
    let left = this.unary();
    for (let op = this.#peekOp('*', '/', '%'); op; op = this.#peekOp('*', '/', '%')) {
      this.#at += 1;
      left = { k: 'bin', op: op as '*' | '/' | '%', l: left, r: this.unary() };
    }
    return left;
  }
  unary(): Expr {
    if (this.#peekOp('-')) {
      this.#at += 1;
      return { k: 'neg', e: this.unary() };
    }
    return this.primary();
  }
  primary(): Expr {
    if ((this.#depth += 1) > 64) throw new Error('The expression is nested too deeply');
    try {
      const token = this.#tokens[this.#at++];
      if (!token) throw new Error('The expression ends too early');
      if (token.t === 'num') return { k: 'num', v: token.v };
      if (token.t === 'str') return { k: 'str', v: token.v };
      if (token.t === 'qid') return { k: 'col', name: token.v };
      if (token.t === 'op' && token.v === '(') {
        const inner = this.additive();
        this.#expect(')');
        return inner;
      }
      if (token.t === 'id') return this.identifier(token.v);
      throw new Error(`Unexpected ${token.v} in the expression`);
    } finally {
      this.#depth -= 1;
    }
  }
  identifier(name: string): Expr {
    const lower = name.toLowerCase();
    if (!this.#peekOp('(')) {
      if (lower === 'null') return { k: 'lit', v: null };
      if (lower === 'true' || lower === 'false') return { k: 'lit', v: lower === 'true' };
      return { k: 'col', name };
    }
    if (!Object.hasOwn(functions, lower)) throw new Error(`Unknown function ${name} in the expression`);
    const fn = lower as FunctionName;
    this.#at += 1;
    const args: Expr[] = [];
    if (!this.#peekOp(')')) {
      args.push(this.additive());
      while (this.#peekOp(',')) {
        this.#at += 1;
        args.push(this.additive());
      }
    }
    this.#expect(')');
    const [min, max] = functions[fn];
    if (args.length < min || args.length > max) throw new Error(`Wrong number of arguments to ${fn}`);
    return { k: 'call', fn, args };
  }
}

export function parseExpression(text: string): Expr {
  return new Parser(tokenize(text)).parseAll();
}

export function referencedColumns(expr: Expr, into = new Set<string>()): Set<string> {
  if (expr.k === 'col') into.add(expr.name);
  else if (expr.k === 'neg') referencedColumns(expr.e, into);
  else if (expr.k === 'bin') referencedColumns(expr.l, referencedColumns(expr.r, into));
  else if (expr.k === 'call') expr.args.forEach((arg) => referencedColumns(arg, into));
  return into;
}
