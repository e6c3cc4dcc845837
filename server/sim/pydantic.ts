/**
 * FastAPI/pydantic v2 error envelopes (docs/daemon.md, "Conventions"): a 422 body is
 * `{"detail":[{type, loc, msg, input, ctx?}]}`; the set_target WebSocket instead sends the
 * error's text rendering, `"1 validation error for FullBodyTarget\n…"`.
 */

export type Loc = Array<string | number>;

export interface PydanticError {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** Thrown by validators; the HTTP layer turns it into a 422, the WS layer into error text. */
export class ValidationError extends Error {
  readonly errors: PydanticError[];

  constructor(errors: PydanticError[]) {
    super(`${errors.length} validation error${errors.length === 1 ? '' : 's'}`);
    this.name = 'ValidationError';
    this.errors = errors;
  }
}

export function missing(loc: Loc, input: unknown = null): PydanticError {
  return { type: 'missing', loc, msg: 'Field required', input };
}

export function enumError(loc: Loc, input: unknown, allowed: readonly string[]): PydanticError {
  const quoted = allowed.map((a) => `'${a}'`);
  const expected = `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1] ?? ''}`;
  return { type: 'enum', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
}

export function boolParsing(loc: Loc, input: unknown): PydanticError {
  return { type: 'bool_parsing', loc, msg: 'Input should be a valid boolean, unable to interpret input', input };
}

export function floatError(loc: Loc, input: unknown): PydanticError {
  if (typeof input === 'string') {
    return {
      type: 'float_parsing',
      loc,
      msg: 'Input should be a valid number, unable to parse string as a number',
      input,
    };
  }
  return { type: 'float_type', loc, msg: 'Input should be a valid number', input };
}

export function intError(loc: Loc, input: unknown): PydanticError {
  if (typeof input === 'number' && Number.isFinite(input)) {
    return {
      type: 'int_from_float',
      loc,
      msg: 'Input should be a valid integer, got a number with a fractional part',
      input,
    };
  }
  if (typeof input === 'string') {
    return {
      type: 'int_parsing',
      loc,
      msg: 'Input should be a valid integer, unable to parse string as an integer',
      input,
    };
  }
  return { type: 'int_type', loc, msg: 'Input should be a valid integer', input };
}

export function boundError(loc: Loc, input: unknown, bound: 'ge' | 'le', limit: number): PydanticError {
  return bound === 'ge'
    ? {
        type: 'greater_than_equal',
        loc,
        msg: `Input should be greater than or equal to ${limit}`,
        input,
        ctx: { ge: limit },
      }
    : {
        type: 'less_than_equal',
        loc,
        msg: `Input should be less than or equal to ${limit}`,
        input,
        ctx: { le: limit },
      };
}

export function stringType(loc: Loc, input: unknown): PydanticError {
  return { type: 'string_type', loc, msg: 'Input should be a valid string', input };
}

export function modelAttributesType(loc: Loc, input: unknown): PydanticError {
  return {
    type: 'model_attributes_type',
    loc,
    msg: 'Input should be a valid dictionary or object to extract fields from',
    input,
  };
}

export function jsonInvalid(reason: string): PydanticError {
  return { type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', input: {}, ctx: { error: reason } };
}

/** Python-ish repr of an input value, as pydantic prints it in `input_value=`. */
function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return `'${value}'`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const inner = Object.entries(value).map(([k, v]) => `'${k}': ${pyRepr(v)}`);
    return `{${inner.join(', ')}}`;
  }
  return String(value);
}

function pyType(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'dict';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  return Number.isInteger(value) ? 'int' : 'float';
}

/** `str(ValidationError)` as pydantic 2 prints it, with the `body` prefix removed like the model sees it. */
export function validationText(model: string, errors: PydanticError[]): string {
  const head = `${errors.length} validation error${errors.length === 1 ? '' : 's'} for ${model}`;
  const lines = errors.map((e) => {
    const loc = e.loc.filter((part, i) => !(i === 0 && part === 'body')).join('.');
    const detail = `  ${e.msg} [type=${e.type}, input_value=${pyRepr(e.input)}, input_type=${pyType(e.input)}]`;
    const link = `    For further information visit https://errors.pydantic.dev/2.11/v/${e.type}`;
    return [loc, detail, link].filter((l) => l !== '').join('\n');
  });
  return [head, ...lines].join('\n');
}
