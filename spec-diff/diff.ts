// Why: `client-records-mock diff OLD NEW` and --watch must say whether an edit
// of the spec breaks *clients*, and none of the libraries compared
// (docs/spec-diff.md) gets the direction of data flow right on this spec. So
// the changes are derived from the documents themselves: operations,
// parameters, request bodies, responses, headers and schemas (through $ref),
// each schema judged in the direction its data flows. A request schema may
// widen (a client's old requests stay valid) but not narrow; a response schema
// may narrow (every answer still fits what clients expect) but not widen. No
// field, parameter or operation of this API is named here.
import { parseSpec, resolvePointer, type OpenApiDocument } from '../contract/spec';

/** Which way the data flows: what clients send, or what they receive. */
export type Side = 'request' | 'response';

export interface Change {
  /** Stable id of the kind of change, e.g. `schema.enum.added`, `parameter.removed`. */
  kind: string;
  breaking: boolean;
  side?: Side;
  /** One line: the subject and what changed, e.g. `Results[].Email: property removed`. */
  message: string;
  /** Where, as `getClientsSimple response 200`; the first of `operations` when several share it. */
  where: string;
  /** Every operation the change reaches (a shared schema reaches several), as operationId or `METHOD /path`. */
  operations: string[];
  /** JSON pointer of the changed node (in the new document; in the old one when it was removed). */
  pointer: string;
}

export interface DiffReport {
  breaking: boolean;
  changes: Change[];
}

/** A document the diff cannot read: one line, exit 2. */
export class DiffInputError extends Error {}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Keys that describe and never constrain: reported as not breaking, wherever they are. */
const ANNOTATIONS = new Set([
  'description',
  'summary',
  'title',
  'example',
  'examples',
  'externalDocs',
  '$comment',
  'tags',
  'contact',
  'license',
  'termsOfService',
]);
/** Upper bounds: lowering one narrows the values. */
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains'] as const;
/** Lower bounds: raising one narrows the values. */
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains'] as const;
/** Constraints that cannot be compared for width: any change may reject what was valid. */
const OPAQUE_CONSTRAINTS = ['pattern', 'format', 'multipleOf', 'contentEncoding', 'contentMediaType'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** A value in a message: a plain word as it is, anything else (an empty string, spaces, a number, null) as JSON. */
const show = (value: unknown): string => (typeof value === 'string' && /^[\w.+\-@:/#~]+$/.test(value) ? value : JSON.stringify(value));
const pointerJoin = (pointer: string, ...keys: (string | number)[]): string =>
  keys.reduce<string>((acc, key) => `${acc}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`, pointer);
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (!isObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, canonical(value[key])]),
  );
}

/** A node and the pointer it was found at, after following `$ref`s. */
interface Located {
  node: unknown;
  pointer: string;
}

/** Where a change is seen from: the operation, the part of it, the schema subject. */
interface Context {
  operation: string;
  where: string;
}

class Differ {
  private readonly changes = new Map<string, Change>();
  /** Schema pairs being compared, per side and operation: a recursive schema is walked once. */
  private readonly visiting = new Set<string>();

  constructor(
    private readonly before: OpenApiDocument,
    private readonly after: OpenApiDocument,
    private readonly names: { before: string; after: string },
  ) {}

  report(): DiffReport {
    const changes = [...this.changes.values()];
    return { breaking: changes.some((change) => change.breaking), changes };
  }

  private add(context: Context, pointer: string, kind: string, breaking: boolean, message: string, side?: Side): void {
    // One change per changed node and kind: a shared schema reached from several operations is listed once.
    const key = `${kind}|${side ?? ''}|${pointer}|${message.replace(/^.*?: /, '')}`;
    const known = this.changes.get(key);
    if (known) {
      if (!known.operations.includes(context.operation)) known.operations.push(context.operation);
      return;
    }
    this.changes.set(key, { kind, breaking, side, message, where: context.where, operations: [context.operation], pointer });
  }

  private resolve(document: OpenApiDocument, node: unknown, pointer: string): Located {
    const file = document === this.before ? this.names.before : this.names.after;
    const seen = new Set<string>();
    while (isObject(node) && typeof node.$ref === 'string') {
      const ref = node.$ref;
      if (!ref.startsWith('#'))
        throw new DiffInputError(
          `${file}: external $ref '${ref}' at #${pointer} is not supported (bundle the spec into one document first)`,
        );
      if (seen.has(ref)) throw new DiffInputError(`${file}: $ref '${ref}' at #${pointer} refers to itself`);
      seen.add(ref);
      const target = resolvePointer(document, ref.slice(1));
      if (target === undefined) throw new DiffInputError(`${file}: $ref '${ref}' at #${pointer} points to nothing`);
      pointer = ref.slice(1);
      node = target;
    }
    return { node, pointer };
  }

  // ---- operations ----

  run(): DiffReport {
    const before = this.operations(this.before);
    const after = this.operations(this.after);
    for (const [key, old] of before) {
      const now = after.get(key);
      const context = { operation: old.label, where: old.label };
      if (!now) {
        this.add(context, old.pointer, 'operation.removed', true, `${old.method.toUpperCase()} ${old.path}: operation removed`);
        continue;
      }
      this.operation(old, now);
    }
    for (const [key, now] of after) {
      if (!before.has(key)) {
        this.add(
          { operation: now.label, where: now.label },
          now.pointer,
          'operation.added',
          false,
          `${now.method.toUpperCase()} ${now.path}: operation added`,
        );
      }
    }
    this.securitySchemes();
    this.annotations(this.before, this.after, '');
    return this.report();
  }

  /** Operations keyed by method and path template with parameter names blanked (renaming `{id}` changes no URL). */
  private operations(document: OpenApiDocument): Map<string, Operation> {
    const result = new Map<string, Operation>();
    for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
      const { node: item, pointer: itemPointer } = this.resolve(document, rawItem, pointerJoin('/paths', path));
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const operation = item[method];
        if (!isObject(operation)) continue;
        const label = typeof operation.operationId === 'string' ? operation.operationId : `${method.toUpperCase()} ${path}`;
        result.set(`${method} ${path.replace(/\{[^}]*\}/g, '{}')}`, {
          method,
          path,
          label,
          node: operation,
          item,
          pointer: pointerJoin(itemPointer, method),
          itemPointer,
        });
      }
    }
    return result;
  }

  private operation(old: Operation, now: Operation): void {
    const context = (where: string): Context => ({ operation: now.label, where: where ? `${now.label} ${where}` : now.label });
    if (old.node.deprecated !== true && now.node.deprecated === true) {
      this.add(
        context(''),
        pointerJoin(now.pointer, 'deprecated'),
        'operation.deprecated',
        false,
        `${now.method.toUpperCase()} ${now.path}: deprecated`,
      );
    }
    this.security(old, now, context('security'));
    this.parameters(old, now, context);
    this.requestBody(old, now, context('request body'));
    this.responses(old, now, context);
  }

  // ---- security ----

  /** The alternatives a request may satisfy, each a set of `scheme` or `scheme:scope`; `[[]]` = no key needed. */
  private requirements(document: OpenApiDocument, operation: Json): string[][] {
    const raw = operation.security ?? document.security;
    if (!Array.isArray(raw) || raw.length === 0) return [[]];
    return raw
      .filter(isObject)
      .map((alternative) =>
        Object.entries(alternative).flatMap(([scheme, scopes]) => [
          scheme,
          ...(Array.isArray(scopes) ? scopes.map((scope) => `${scheme}:${String(scope)}`) : []),
        ]),
      );
  }

  private security(old: Operation, now: Operation, context: Context): void {
    const before = this.requirements(this.before, old.node);
    const after = this.requirements(this.after, now.node);
    // A client that satisfied some old alternative must satisfy some new one: a new one that asks for no more than it.
    const stillMet = before.every((alternative) => after.some((candidate) => candidate.every((need) => alternative.includes(need))));
    const describe = (alternatives: string[][]) =>
      alternatives
        .map((alternative) => (alternative.length === 0 ? 'none' : alternative.filter((need) => !need.includes(':')).join(' + ')))
        .join(' or ');
    if (!sameJson(before.map((a) => [...a].sort()).sort(), after.map((a) => [...a].sort()).sort())) {
      this.add(
        context,
        pointerJoin(now.pointer, 'security'),
        stillMet ? 'security.relaxed' : 'security.tightened',
        !stillMet,
        `security: ${describe(before)} → ${describe(after)}`,
      );
    }
  }

  /** A scheme that changes how the credential travels breaks every operation that uses it. */
  private securitySchemes(): void {
    const before = isObject(this.before.components?.securitySchemes) ? (this.before.components.securitySchemes as Json) : {};
    const after = isObject(this.after.components?.securitySchemes) ? (this.after.components.securitySchemes as Json) : {};
    const users = this.schemeUsers();
    for (const [name, rawOld] of Object.entries(before)) {
      const rawNew = after[name];
      if (rawNew === undefined) continue; // an operation still requiring it is reported by its security
      const old = this.resolve(this.before, rawOld, pointerJoin('/components/securitySchemes', name)).node;
      const now = this.resolve(this.after, rawNew, pointerJoin('/components/securitySchemes', name));
      if (!isObject(old) || !isObject(now.node)) continue;
      for (const key of new Set([...Object.keys(old), ...Object.keys(now.node)])) {
        if (ANNOTATIONS.has(key) || key === 'bearerFormat' || key.startsWith('x-') || sameJson(old[key], now.node[key])) continue;
        const operations = users.get(name) ?? [];
        if (operations.length === 0) continue;
        for (const operation of operations) {
          this.add(
            { operation, where: `${operation} security` },
            pointerJoin(now.pointer, key),
            'security.scheme.changed',
            true,
            `security scheme ${name}: ${key} changed ${show(old[key])} → ${show(now.node[key])}`,
          );
        }
      }
    }
  }

  private schemeUsers(): Map<string, string[]> {
    const users = new Map<string, string[]>();
    for (const operation of this.operations(this.after).values()) {
      for (const alternative of this.requirements(this.after, operation.node)) {
        for (const need of alternative) if (!need.includes(':')) users.set(need, [...(users.get(need) ?? []), operation.label]);
      }
    }
    return users;
  }

  // ---- parameters ----

  private parameterMap(document: OpenApiDocument, operation: Operation): Map<string, Located & { node: Json }> {
    const result = new Map<string, Located & { node: Json }>();
    const templateNames = [...operation.path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1]);
    const lists: [unknown, string][] = [
      [operation.item.parameters, pointerJoin(operation.itemPointer, 'parameters')],
      [operation.node.parameters, pointerJoin(operation.pointer, 'parameters')],
    ];
    for (const [list, listPointer] of lists) {
      if (!Array.isArray(list)) continue;
      list.forEach((raw, index) => {
        const located = this.resolve(document, raw, pointerJoin(listPointer, index));
        const node = located.node;
        if (!isObject(node) || typeof node.name !== 'string' || typeof node.in !== 'string') return;
        // Header names are case-insensitive; a path parameter is known by its place in the path, not its name.
        const name =
          node.in === 'header' ? node.name.toLowerCase() : node.in === 'path' ? `#${templateNames.indexOf(node.name)}` : node.name;
        result.set(`${node.in}:${name}`, { node, pointer: located.pointer });
      });
    }
    return result;
  }

  private parameters(old: Operation, now: Operation, context: (where: string) => Context): void {
    const before = this.parameterMap(this.before, old);
    const after = this.parameterMap(this.after, now);
    for (const [key, { node: p, pointer }] of before) {
      const label = `${String(p.in)} parameter ${String(p.name)}`;
      const current = after.get(key);
      if (!current) {
        this.add(context(label), pointer, 'parameter.removed', true, `${label} removed`, 'request');
        continue;
      }
      const n = current.node;
      const ctx = context(label);
      const here = current.pointer;
      if (p.required !== true && n.required === true)
        this.add(ctx, pointerJoin(here, 'required'), 'parameter.required', true, `${label}: now required`, 'request');
      if (p.required === true && n.required !== true)
        this.add(ctx, pointerJoin(here, 'required'), 'parameter.optional', false, `${label}: now optional`, 'request');
      if (p.deprecated !== true && n.deprecated === true)
        this.add(ctx, pointerJoin(here, 'deprecated'), 'parameter.deprecated', false, `${label}: deprecated`, 'request');
      for (const flag of ['allowEmptyValue', 'allowReserved'] as const) {
        if (p[flag] === true && n[flag] !== true)
          this.add(
            ctx,
            pointerJoin(here, flag),
            `parameter.${flag}.removed`,
            true,
            `${label}: ${flag} removed (what it allowed is now rejected)`,
            'request',
          );
        if (p[flag] !== true && n[flag] === true)
          this.add(ctx, pointerJoin(here, flag), `parameter.${flag}.added`, false, `${label}: ${flag} added`, 'request');
      }
      for (const serialisation of ['style', 'explode'] as const) {
        if (!sameJson(p[serialisation], n[serialisation])) {
          this.add(
            ctx,
            pointerJoin(here, serialisation),
            `parameter.${serialisation}.changed`,
            true,
            `${label}: ${serialisation} changed ${show(p[serialisation] ?? 'default')} → ${show(n[serialisation] ?? 'default')}`,
            'request',
          );
        }
      }
      this.schema(this.parameterSchema(this.before, p, pointer), this.parameterSchema(this.after, n, here), 'request', ctx, label);
    }
    for (const [key, { node: n, pointer }] of after) {
      if (before.has(key)) continue;
      const label = `${String(n.in)} parameter ${String(n.name)}`;
      const required = n.required === true;
      this.add(
        context(label),
        pointer,
        required ? 'parameter.added.required' : 'parameter.added.optional',
        required,
        `${required ? 'required' : 'optional'} ${label} added`,
        'request',
      );
    }
  }

  private parameterSchema(document: OpenApiDocument, parameter: Json, pointer: string): Located | undefined {
    if (parameter.schema !== undefined) return this.resolve(document, parameter.schema, pointerJoin(pointer, 'schema'));
    if (isObject(parameter.content)) {
      const [type, media] = Object.entries(parameter.content)[0] ?? [];
      if (type && isObject(media) && media.schema !== undefined)
        return this.resolve(document, media.schema, pointerJoin(pointer, 'content', type, 'schema'));
    }
    return undefined;
  }

  // ---- request body ----

  private requestBody(old: Operation, now: Operation, context: Context): void {
    const before =
      old.node.requestBody === undefined
        ? undefined
        : this.resolve(this.before, old.node.requestBody, pointerJoin(old.pointer, 'requestBody'));
    const after =
      now.node.requestBody === undefined
        ? undefined
        : this.resolve(this.after, now.node.requestBody, pointerJoin(now.pointer, 'requestBody'));
    if (!before && !after) return;
    if (!before || !isObject(before.node)) {
      const required = isObject(after!.node) && after!.node.required === true;
      this.add(
        context,
        after!.pointer,
        required ? 'body.added.required' : 'body.added.optional',
        required,
        `${required ? 'required' : 'optional'} request body added`,
        'request',
      );
      return;
    }
    if (!after || !isObject(after.node)) {
      this.add(context, before.pointer, 'body.removed', true, 'request body removed', 'request');
      return;
    }
    if (before.node.required !== true && after.node.required === true)
      this.add(context, pointerJoin(after.pointer, 'required'), 'body.required', true, 'request body: now required', 'request');
    this.content(before, after, 'request', context, 'body');
  }

  /** Media types of a request body or response: one the client used must stay; each schema compared in `side`'s direction. */
  private content(
    before: Located & { node: unknown },
    after: Located & { node: unknown },
    side: Side,
    context: Context,
    subject: string,
  ): void {
    const oldContent = isObject(before.node) && isObject((before.node as Json).content) ? ((before.node as Json).content as Json) : {};
    const newContent = isObject(after.node) && isObject((after.node as Json).content) ? ((after.node as Json).content as Json) : {};
    for (const [type, media] of Object.entries(oldContent)) {
      const current = newContent[type];
      if (current === undefined) {
        this.add(
          context,
          pointerJoin(before.pointer, 'content', type),
          'content.removed',
          true,
          `${subject}: media type ${type} removed`,
          side,
        );
        continue;
      }
      const oldSchema =
        isObject(media) && media.schema !== undefined
          ? this.resolve(this.before, media.schema, pointerJoin(before.pointer, 'content', type, 'schema'))
          : undefined;
      const newSchema =
        isObject(current) && current.schema !== undefined
          ? this.resolve(this.after, current.schema, pointerJoin(after.pointer, 'content', type, 'schema'))
          : undefined;
      this.schema(oldSchema, newSchema, side, context, subject);
    }
    for (const type of Object.keys(newContent)) {
      if (!(type in oldContent))
        this.add(
          context,
          pointerJoin(after.pointer, 'content', type),
          'content.added',
          false,
          `${subject}: media type ${type} added`,
          side,
        );
    }
  }

  // ---- responses ----

  private responses(old: Operation, now: Operation, context: (where: string) => Context): void {
    const before = isObject(old.node.responses) ? old.node.responses : {};
    const after = isObject(now.node.responses) ? now.node.responses : {};
    for (const [status, raw] of Object.entries(before)) {
      const ctx = context(`response ${status}`);
      if (!(status in after)) {
        // What the client handled for that case now comes back some other way.
        this.add(ctx, pointerJoin(old.pointer, 'responses', status), 'response.removed', true, `status ${status} removed`, 'response');
        continue;
      }
      const oldResponse = this.resolve(this.before, raw, pointerJoin(old.pointer, 'responses', status));
      const newResponse = this.resolve(this.after, after[status], pointerJoin(now.pointer, 'responses', status));
      this.headers(oldResponse, newResponse, ctx);
      this.content(oldResponse, newResponse, 'response', ctx, 'body');
    }
    for (const status of Object.keys(after)) {
      if (status in before) continue;
      // A new success or redirect is a new shape the client never parsed; a new error status falls into the
      // error handling every client has (any call may fail), and its body is judged where the status is used.
      const breaking = /^[123]/.test(status);
      this.add(
        context(`response ${status}`),
        pointerJoin(now.pointer, 'responses', status),
        'response.added',
        breaking,
        `status ${status} added`,
        'response',
      );
    }
  }

  private headers(before: Located, after: Located, context: Context): void {
    const map = (response: Located, document: OpenApiDocument) => {
      const result = new Map<string, Located & { name: string }>();
      const headers = isObject(response.node) && isObject((response.node as Json).headers) ? ((response.node as Json).headers as Json) : {};
      for (const [name, raw] of Object.entries(headers)) {
        result.set(name.toLowerCase(), { ...this.resolve(document, raw, pointerJoin(response.pointer, 'headers', name)), name });
      }
      return result;
    };
    const oldHeaders = map(before, this.before);
    const newHeaders = map(after, this.after);
    for (const [key, old] of oldHeaders) {
      const now = newHeaders.get(key);
      const label = `header ${old.name}`;
      if (!now) {
        this.add(context, old.pointer, 'header.removed', true, `${label} removed`, 'response');
        continue;
      }
      const o = isObject(old.node) ? old.node : {};
      const n = isObject(now.node) ? now.node : {};
      if (o.required === true && n.required !== true)
        this.add(context, pointerJoin(now.pointer, 'required'), 'header.optional', true, `${label}: no longer required`, 'response');
      if (o.required !== true && n.required === true)
        this.add(context, pointerJoin(now.pointer, 'required'), 'header.required', false, `${label}: now always sent`, 'response');
      const schema = (header: Json, located: Located, document: OpenApiDocument) =>
        header.schema === undefined ? undefined : this.resolve(document, header.schema, pointerJoin(located.pointer, 'schema'));
      this.schema(schema(o, old, this.before), schema(n, now, this.after), 'response', context, label);
    }
    for (const [key, now] of newHeaders) {
      if (!oldHeaders.has(key)) this.add(context, now.pointer, 'header.added', false, `header ${now.name} added`, 'response');
    }
  }

  // ---- schemas ----

  /**
   * Compares two schemas in the direction of data flow. `narrowed`/`widened`
   * name what the edit did to the set of valid values; which one breaks
   * clients depends on the side.
   */
  private schema(before: Located | undefined, after: Located | undefined, side: Side, context: Context, subject: string): void {
    if (!before && !after) return;
    if (!before || !after) {
      // No schema allows anything: adding one narrows, removing one widens.
      this.bound(
        context,
        (after ?? before)!.pointer,
        side,
        'schema',
        after ? 'narrowed' : 'widened',
        `${subject}: schema ${after ? 'added' : 'removed'}`,
      );
      return;
    }
    const old = this.resolve(this.before, before.node, before.pointer);
    const now = this.resolve(this.after, after.node, after.pointer);
    const visit = `${side}|${context.operation}|${old.pointer}|${now.pointer}`;
    if (this.visiting.has(visit)) return;
    this.visiting.add(visit);
    try {
      this.schemaNode(old, now, side, context, subject);
    } finally {
      this.visiting.delete(visit);
    }
  }

  /** Records a change that narrows or widens the valid values: breaking when it goes against the side's direction. */
  private bound(
    context: Context,
    pointer: string,
    side: Side,
    kind: string,
    effect: 'narrowed' | 'widened' | 'changed',
    message: string,
  ): void {
    const breaking = effect === 'changed' || (side === 'request' ? effect === 'narrowed' : effect === 'widened');
    this.add(context, pointer, `schema.${kind}.${effect}`, breaking, message, side);
  }

  private schemaNode(before: Located, after: Located, side: Side, context: Context, subject: string): void {
    const o = isObject(before.node) ? before.node : before.node === false ? { not: {} } : {};
    const n = isObject(after.node) ? after.node : after.node === false ? { not: {} } : {};
    const at = (key: string) => pointerJoin(after.pointer, key);

    // type (OAS 3.0's nullable counts as the type null)
    const oldTypes = typesOf(o);
    const newTypes = typesOf(n);
    if (oldTypes || newTypes) {
      const covers = (types: Set<string> | undefined, type: string) =>
        !types || types.has(type) || (type === 'integer' && types.has('number'));
      const added = newTypes ? [...newTypes].filter((type) => !covers(oldTypes, type)) : ['any'];
      const removed = oldTypes ? [...oldTypes].filter((type) => !covers(newTypes, type)) : ['any'];
      for (const type of added) {
        const message = type === 'null' ? (side === 'response' ? 'may now be null' : 'now accepts null') : `type ${type} added`;
        this.bound(context, at('type'), side, type === 'null' ? 'nullable' : 'type', 'widened', `${subject}: ${message}`);
      }
      for (const type of removed) {
        const message = type === 'null' ? (side === 'response' ? 'never null any more' : 'no longer accepts null') : `type ${type} removed`;
        this.bound(context, at('type'), side, type === 'null' ? 'nullable' : 'type', 'narrowed', `${subject}: ${message}`);
      }
    }

    // enum and const: a closed set of values
    const oldEnum = valuesOf(o);
    const newEnum = valuesOf(n);
    if (oldEnum && newEnum) {
      for (const value of newEnum) {
        if (!oldEnum.some((known) => sameJson(known, value)))
          this.bound(context, at('enum'), side, 'enum', 'widened', `${subject}: enum value ${show(value)} added`);
      }
      for (const value of oldEnum) {
        if (!newEnum.some((known) => sameJson(known, value)))
          this.bound(context, at('enum'), side, 'enum', 'narrowed', `${subject}: enum value ${show(value)} removed`);
      }
    } else if (oldEnum) {
      this.bound(
        context,
        pointerJoin(before.pointer, 'enum'),
        side,
        'enum',
        'widened',
        `${subject}: enum removed (was ${oldEnum.map(show).join(', ')})`,
      );
    } else if (newEnum) {
      this.bound(context, at('enum'), side, 'enum', 'narrowed', `${subject}: enum added (${newEnum.map(show).join(', ')})`);
    }

    // numeric and size bounds
    for (const key of [...UPPER_BOUNDS, ...LOWER_BOUNDS]) {
      const was = o[key];
      const is = n[key];
      if (sameJson(was, is)) continue;
      const upper = (UPPER_BOUNDS as readonly string[]).includes(key);
      if (typeof was === 'number' && typeof is === 'number') {
        const narrowed = upper ? is < was : is > was;
        this.bound(
          context,
          at(key),
          side,
          key,
          narrowed ? 'narrowed' : 'widened',
          `${subject}: ${key} ${is < was ? 'lowered' : 'raised'} ${was} → ${is}`,
        );
      } else if (typeof is === 'number' || is === true) {
        this.bound(context, at(key), side, key, 'narrowed', `${subject}: ${key} ${show(is)} added`);
      } else if (typeof was === 'number' || was === true) {
        this.bound(context, pointerJoin(before.pointer, key), side, key, 'widened', `${subject}: ${key} removed (was ${show(was)})`);
      }
    }
    if (o.uniqueItems !== true && n.uniqueItems === true)
      this.bound(context, at('uniqueItems'), side, 'uniqueItems', 'narrowed', `${subject}: items must now be unique`);
    if (o.uniqueItems === true && n.uniqueItems !== true)
      this.bound(context, at('uniqueItems'), side, 'uniqueItems', 'widened', `${subject}: items may now repeat`);

    // constraints whose width cannot be compared
    for (const key of OPAQUE_CONSTRAINTS) {
      if (sameJson(o[key], n[key])) continue;
      if (o[key] === undefined) this.bound(context, at(key), side, key, 'narrowed', `${subject}: ${key} ${show(n[key])} added`);
      else if (n[key] === undefined)
        this.bound(context, pointerJoin(before.pointer, key), side, key, 'widened', `${subject}: ${key} ${show(o[key])} removed`);
      else this.bound(context, at(key), side, key, 'changed', `${subject}: ${key} changed ${show(o[key])} → ${show(n[key])}`);
    }

    // default: what the server assumes when a client leaves the value out
    if (!sameJson(o.default, n.default)) {
      // A changed or dropped default changes the answer to a request that leaves the value out.
      const breaking = side === 'request' && o.default !== undefined;
      const what =
        o.default === undefined
          ? `default ${show(n.default)} added`
          : n.default === undefined
            ? `default removed (was ${show(o.default)})`
            : `default changed ${show(o.default)} → ${show(n.default)}`;
      this.add(context, at('default'), 'schema.default.changed', breaking, `${subject}: ${what}`, side);
    }
    if (o.deprecated !== true && n.deprecated === true)
      this.add(context, at('deprecated'), 'schema.deprecated', false, `${subject}: deprecated`, side);

    this.objectKeywords(o, n, before, after, side, context, subject);

    // arrays
    if (o.items !== undefined || n.items !== undefined) {
      this.schema(
        o.items === undefined ? undefined : { node: o.items, pointer: pointerJoin(before.pointer, 'items') },
        n.items === undefined ? undefined : { node: n.items, pointer: pointerJoin(after.pointer, 'items') },
        side,
        context,
        `${subject}[]`,
      );
    }

    // combinations: a branch more in anyOf/oneOf widens, one more in allOf narrows
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      const was = Array.isArray(o[key]) ? (o[key] as unknown[]) : [];
      const is = Array.isArray(n[key]) ? (n[key] as unknown[]) : [];
      for (let index = 0; index < Math.max(was.length, is.length); index++) {
        if (index < was.length && index < is.length) {
          this.schema(
            { node: was[index], pointer: pointerJoin(before.pointer, key, index) },
            { node: is[index], pointer: pointerJoin(after.pointer, key, index) },
            side,
            context,
            subject,
          );
        } else {
          const addedBranch = index >= was.length;
          const effect = (key === 'allOf') === addedBranch ? 'narrowed' : 'widened';
          this.bound(
            context,
            pointerJoin(addedBranch ? after.pointer : before.pointer, key, index),
            side,
            key,
            effect,
            `${subject}: ${key} branch ${index + 1} ${addedBranch ? 'added' : 'removed'}`,
          );
        }
      }
    }
    if (!sameJson(o.not, n.not)) this.bound(context, at('not'), side, 'not', 'changed', `${subject}: not changed`);
  }

  private objectKeywords(o: Json, n: Json, before: Located, after: Located, side: Side, context: Context, subject: string): void {
    const oldProperties = isObject(o.properties) ? o.properties : {};
    const newProperties = isObject(n.properties) ? n.properties : {};
    const oldRequired = new Set(Array.isArray(o.required) ? o.required.map(String) : []);
    const newRequired = new Set(Array.isArray(n.required) ? n.required.map(String) : []);
    const child = (name: string) => (subject === 'body' ? name : `${subject}.${name}`);
    const closed = (schema: Json) => schema.additionalProperties === false || schema.unevaluatedProperties === false;

    for (const [name, schema] of Object.entries(oldProperties)) {
      const pointer = pointerJoin(before.pointer, 'properties', name);
      if (!(name in newProperties)) {
        // A response loses what clients read; a request rejects what clients send only if the object is closed.
        const breaking = side === 'response' || closed(n);
        this.add(context, pointer, 'property.removed', breaking, `${child(name)}: property removed`, side);
        continue;
      }
      const newPointer = pointerJoin(after.pointer, 'properties', name);
      if (!oldRequired.has(name) && newRequired.has(name)) {
        this.add(
          context,
          newPointer,
          'property.required',
          side === 'request',
          `${child(name)}: ${side === 'request' ? 'now required' : 'now always present'}`,
          side,
        );
      }
      if (oldRequired.has(name) && !newRequired.has(name)) {
        this.add(context, newPointer, 'property.optional', side === 'response', `${child(name)}: no longer required`, side);
      }
      this.schema({ node: schema, pointer }, { node: newProperties[name], pointer: newPointer }, side, context, child(name));
    }
    for (const name of Object.keys(newProperties)) {
      if (name in oldProperties) continue;
      const pointer = pointerJoin(after.pointer, 'properties', name);
      const required = newRequired.has(name);
      if (side === 'request') {
        // What clients send today lacks it: breaking only when the server now insists on it.
        this.add(
          context,
          pointer,
          required ? 'property.added.required' : 'property.added.optional',
          required,
          `${child(name)}: ${required ? 'required' : 'optional'} property added`,
          side,
        );
      } else {
        // Clients read the fields they know; additionalProperties: false describes the answer, it does not
        // promise that no field is ever added (docs/decisions.md).
        this.add(
          context,
          pointer,
          required ? 'property.added.required' : 'property.added.optional',
          false,
          `${child(name)}: ${required ? 'property added, always present' : 'optional property added'}`,
          side,
        );
      }
    }
    // A property required without being listed (an open object) is covered by the required sets alone.
    for (const name of newRequired) {
      if (!oldRequired.has(name) && !(name in newProperties) && side === 'request') {
        this.add(context, pointerJoin(after.pointer, 'required'), 'property.required', true, `${child(name)}: now required`, side);
      }
    }
    for (const name of oldRequired) {
      if (!newRequired.has(name) && !(name in oldProperties) && side === 'response') {
        this.add(context, pointerJoin(after.pointer, 'required'), 'property.optional', true, `${child(name)}: no longer required`, side);
      }
    }

    // Closing an object rejects requests with extra members; opening one is no news to a client that ignores extras.
    if (!closed(o) && closed(n) && (isObject(o.properties) || isObject(n.properties))) {
      this.bound(
        context,
        pointerJoin(after.pointer, 'additionalProperties'),
        side,
        'additionalProperties',
        'narrowed',
        `${subject}: additional properties no longer allowed`,
      );
    }
    if (closed(o) && !closed(n)) {
      this.add(
        context,
        pointerJoin(after.pointer, 'additionalProperties'),
        'schema.additionalProperties.widened',
        false,
        `${subject}: additional properties now allowed`,
        side,
      );
    }
    if (isObject(o.additionalProperties) && isObject(n.additionalProperties)) {
      this.schema(
        { node: o.additionalProperties, pointer: pointerJoin(before.pointer, 'additionalProperties') },
        { node: n.additionalProperties, pointer: pointerJoin(after.pointer, 'additionalProperties') },
        side,
        context,
        `${subject}.*`,
      );
    }
  }

  // ---- annotations ----

  /** Descriptions, examples and the like, wherever they are: listed, never breaking. */
  private annotations(before: unknown, after: unknown, pointer: string): void {
    if (!isObject(before) || !isObject(after)) {
      if (Array.isArray(before) && Array.isArray(after)) {
        for (let index = 0; index < Math.min(before.length, after.length); index++)
          this.annotations(before[index], after[index], pointerJoin(pointer, index));
      }
      return;
    }
    // A $ref on either side: its target's annotations are compared where the target is, not here.
    if (typeof before.$ref === 'string' || typeof after.$ref === 'string') return;
    // Under these keys the keys are names (a property called `description`), not keywords.
    const names =
      /\/(properties|patternProperties|\$defs|definitions|schemas|responses|parameters|headers|securitySchemes|requestBodies|links|callbacks|content|paths)$/.test(
        pointer,
      );
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const here = pointerJoin(pointer, key);
      const annotation =
        !names && (ANNOTATIONS.has(key) || key.startsWith('x-') || pointer === '/info' || (pointer === '' && key === 'servers'));
      if (!annotation) {
        this.annotations(before[key], after[key], here);
        continue;
      }
      if (sameJson(before[key], after[key])) continue;
      const what = before[key] === undefined ? 'added' : after[key] === undefined ? 'removed' : 'changed';
      this.add(
        { operation: 'document', where: describePointer(pointer) },
        here,
        `annotation.${key}`,
        false,
        `${describePointer(here)} ${what}`,
      );
    }
  }
}

interface Operation {
  method: (typeof METHODS)[number];
  path: string;
  label: string;
  node: Json;
  item: Json;
  pointer: string;
  itemPointer: string;
}

/** The set of JSON types a schema allows, or undefined for any. */
function typesOf(schema: Json): Set<string> | undefined {
  let types: string[] | undefined;
  if (typeof schema.type === 'string') types = [schema.type];
  else if (Array.isArray(schema.type)) types = schema.type.map(String);
  if (!types) return undefined;
  if (schema.nullable === true) types.push('null');
  return new Set(types);
}

/** The closed set of values a schema allows (enum, const), or undefined. OAS 3.0's nullable adds null to an enum. */
function valuesOf(schema: Json): unknown[] | undefined {
  if (schema.const !== undefined) return [schema.const];
  if (!Array.isArray(schema.enum)) return undefined;
  return schema.nullable === true && !schema.enum.includes(null) ? [...schema.enum, null] : schema.enum;
}

/** `/paths/~1api~1v1~1Client~1Simple/get/parameters/0` as `paths./api/v1/Client/Simple.get.parameters[0]`. */
export function describePointer(pointer: string): string {
  return (
    pointer
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '') || 'document'
  );
}

/** The changes from `before` to `after`, each classified for clients. Throws DiffInputError for a `$ref` it cannot follow. */
export function diffSpecs(before: OpenApiDocument, after: OpenApiDocument, names = { before: 'OLD', after: 'NEW' }): DiffReport {
  const report = new Differ(before, after, names).run();
  // Breaking first, then in the documents' order.
  report.changes.sort((a, b) => Number(b.breaking) - Number(a.breaking));
  return report;
}

/** The same from two specs' texts (`path` names each in messages); parse errors are DiffInputErrors. */
export function diffSpecTexts(before: { path: string; text: string }, after: { path: string; text: string }): DiffReport {
  const parse = (spec: { path: string; text: string }) => {
    try {
      return parseSpec(spec.text, spec.path).document;
    } catch (error) {
      throw new DiffInputError((error as Error).message, { cause: error });
    }
  };
  return diffSpecs(parse(before), parse(after), { before: before.path, after: after.path });
}
