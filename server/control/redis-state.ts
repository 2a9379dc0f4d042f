// The state store on Redis (--state redis://HOST:PORT; state.ts): every
// worker and every replica pointed at one Redis shares the server's scenario,
// the sessions, the journal and the coverage counts (control.openapi.yaml,
// "More than one process"; docs/control.md). Loaded by dynamic import only
// when --state is given, so a process without it never loads ioredis.
//
// What the request path pays, and how reads stay exact:
// - Choosing a scenario reads a local copy (the server's scenario and every
//   session's own), kept fresh by pub/sub on `PREFIX events`: no round trip.
// - An exchange (journal entry, session touch, coverage counts) is buffered
//   and written behind, once per turn of the event loop, in one pipeline: no
//   round trip either.
// - A switch is written, published, and answered only once every process
//   subscribed has applied it (each acknowledges on `PREFIX ack:ID`), so the
//   next request through any replica is answered in it.
// - A read (journal, sessions, coverage) first publishes a barrier: each
//   process writes what it has buffered, then acknowledges on the same
//   connection, so Redis holds every exchange answered before the read began
//   by the time the reader hears the last acknowledgement. It costs the read
//   one pub/sub round trip to every process (about a millisecond), bounded by
//   ACK_DEADLINE_MS for a process that does not answer.
// While Redis is unreachable the request path goes on from the local copy
// (the last known scenarios), buffered writes are kept up to a bound, and the
// control API answers 503 STORE_UNAVAILABLE naming the store; ioredis
// reconnects (at most RECONNECT_MAX_MS apart), the copy is read again, the
// buffer written, and a log line says each change of state.
//
// Keys (PREFIX, --state-prefix, default `crm:`): `server` (the server's
// scenario, `since|X-Mock-Scenario`), `server:stats` (requests, lastSeen),
// `sessions` (a sorted set by last use: the bound of SESSION_CAPACITY and
// the TTL, --state-ttl, are kept by trimming it), `own`, `requests`, `seen`
// (hashes by session), `journal` (a list capped at --journal-size by LTRIM),
// `journal:ids`, `coverage` (a hash of counts), `version`. A standalone Redis
// (the scripts build key names from the prefix), not Redis Cluster; Redis 6.2
// or later (ZADD GT).
import { randomUUID } from 'node:crypto';
import { Redis, type ChainableCommander } from 'ioredis';
import type { Logger } from 'pino';
import { CoverageTally } from '../../contract/coverage-report';
import { entryMatches, entryOf, type Exchange, type JournalEntry, type JournalPage, type JournalQuery, type ProcessLabel } from './journal';
import type { ScenarioChoice, ScenarioTable } from './scenarios';
import { scenarioState, SESSION_CAPACITY, type ScenarioState, type SessionList, type SessionRecord } from './sessions';
import { StoreUnavailable, type StateStore } from './state';

/** How long start-up waits for Redis before the process exits 2. */
export const CONNECT_DEADLINE_MS = 5_000;
/** How long a control API call waits for one Redis command before it answers 503. */
export const COMMAND_DEADLINE_MS = 1_000;
/** How long a switch or a read waits for the other processes' acknowledgements; one that is late is left out. */
export const ACK_DEADLINE_MS = 1_000;
/** The longest pause between two reconnection attempts (ioredis retries forever, this far apart at most). */
export const RECONNECT_MAX_MS = 1_000;
/** Exchanges buffered at most while Redis is unreachable (beyond the journal's size they would be trimmed anyway). */
const PENDING_SESSIONS_MAX = SESSION_CAPACITY;
/** How often each process trims sessions past their TTL even without traffic. */
const TRIM_EVERY_MS = 60_000;

export interface RedisStateOptions {
  /** redis://[user:password@]HOST:PORT[/DB], or rediss:// (TLS). */
  url: string;
  prefix: string;
  /** Seconds a session no request or switch used is kept. */
  sessionTtlSeconds: number;
  /** Entries the shared journal keeps; 0 keeps none. */
  journalSize: number;
  process: ProcessLabel;
  logger: Logger;
}

/** A message on `PREFIX events`: a change every process applies, or a barrier; each is acknowledged. */
type Message =
  | { t: 'change'; v: number; from: string; nonce: string; op: 'server'; text: string }
  | { t: 'change'; v: number; from: string; nonce: string; op: 'session'; name: string; text: string }
  | { t: 'change'; v: number; from: string; nonce: string; op: 'forget'; names: string[] | Record<string, never> }
  | { t: 'change'; v: number; from: string; nonce: string; op: 'forget-all' }
  | { t: 'sync'; from: string; nonce: string };

/** The one script of the changes: writes, bumps the version, publishes; returns how many processes heard it. */
const CHANGE_LUA = `
local p, op = ARGV[1], ARGV[2]
local msg = {t = 'change', op = op, from = ARGV[3], nonce = ARGV[4]}
local function forget(name)
  redis.call('ZREM', p .. 'sessions', name)
  redis.call('HDEL', p .. 'own', name)
  redis.call('HDEL', p .. 'requests', name)
  redis.call('HDEL', p .. 'seen', name)
end
if op == 'server' then
  if ARGV[5] == '' then redis.call('DEL', p .. 'server') else redis.call('SET', p .. 'server', ARGV[5]) end
  msg.text = ARGV[5]
elseif op == 'server-initial' then
  if not redis.call('SET', p .. 'server', ARGV[5], 'NX') then return -1 end
  msg.op = 'server'
  msg.text = ARGV[5]
elseif op == 'session' then
  redis.call('HSET', p .. 'own', ARGV[5], ARGV[6])
  redis.call('ZADD', p .. 'sessions', ARGV[7], ARGV[5])
  msg.name = ARGV[5]
  msg.text = ARGV[6]
elseif op == 'forget' then
  local names = {}
  for i = 5, #ARGV do
    forget(ARGV[i])
    names[#names + 1] = ARGV[i]
  end
  msg.names = names
elseif op == 'forget-all' then
  redis.call('DEL', p .. 'sessions', p .. 'own', p .. 'requests', p .. 'seen')
end
msg.v = redis.call('INCR', p .. 'version')
return redis.call('PUBLISH', p .. 'events', cjson.encode(msg))
`;

/** Sessions past the TTL or beyond the capacity (least recently used first) are forgotten; the mirrors hear of those that had a scenario. */
const TRIM_LUA = `
local p, from, oldest, capacity = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local names = redis.call('ZRANGEBYSCORE', p .. 'sessions', '-inf', '(' .. oldest)
local left = redis.call('ZCARD', p .. 'sessions') - #names
if left > capacity then
  local over = redis.call('ZRANGE', p .. 'sessions', #names, #names + left - capacity - 1)
  for _, name in ipairs(over) do names[#names + 1] = name end
end
if #names == 0 then return 0 end
local had = {}
for _, name in ipairs(names) do
  if redis.call('HEXISTS', p .. 'own', name) == 1 then had[#had + 1] = name end
  redis.call('ZREM', p .. 'sessions', name)
  redis.call('HDEL', p .. 'own', name)
  redis.call('HDEL', p .. 'requests', name)
  redis.call('HDEL', p .. 'seen', name)
end
if #had > 0 then
  local v = redis.call('INCR', p .. 'version')
  redis.call('PUBLISH', p .. 'events', cjson.encode({t = 'change', op = 'forget', names = had, from = from, nonce = '', v = v}))
end
return #names
`;

/** Buffered journal entries (JSON with id 0) get their ids here, newest first, and the list is capped. */
const JOURNAL_LUA = `
local p, size = ARGV[1], tonumber(ARGV[2])
local n = #ARGV - 2
local last = redis.call('INCRBY', p .. 'journal:ids', n)
for i = 3, #ARGV do
  redis.call('LPUSH', p .. 'journal', '{"id":' .. (last - n + i - 2) .. string.sub(ARGV[i], 8))
end
redis.call('LTRIM', p .. 'journal', 0, size - 1)
return last
`;

/** One session's entries leave the journal (the others keep their order). */
const CLEAR_SESSION_LUA = `
local p, name = ARGV[1], ARGV[2]
local entries = redis.call('LRANGE', p .. 'journal', 0, -1)
redis.call('DEL', p .. 'journal')
for _, entry in ipairs(entries) do
  if cjson.decode(entry).session ~= name then redis.call('RPUSH', p .. 'journal', entry) end
end
return #entries
`;

interface Scripts {
  crmChange(...args: (string | number)[]): Promise<number>;
  crmTrim(...args: (string | number)[]): Promise<number>;
  crmClearSession(...args: (string | number)[]): Promise<number>;
}
type Commander = Redis & Scripts;
type Batch = ChainableCommander & { crmJournal(...args: (string | number)[]): Batch; crmTrim(...args: (string | number)[]): Batch };

/** `since|X-Mock-Scenario` as the keys keep a choice. */
const textOf = (choice: ScenarioChoice, at: number) => `${at}|${choice.wire.header}`;

/** A choice kept as text, read with the served table when first needed. */
interface Kept {
  text: string;
  choice?: ScenarioChoice;
}

/** redis://user:secret@host → redis://user:***@host: the address as logs and messages show it. */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href.replace(/\/$/, '');
  } catch {
    return 'redis://?';
  }
}

export class RedisState implements StateStore {
  readonly name: string;
  private readonly id = `${randomUUID()}`;
  private readonly p: string;
  private table!: ScenarioTable;
  private server: Kept | undefined;
  private serverChoiceCache: ScenarioChoice | undefined;
  private readonly own = new Map<string, Kept>();
  /** The version of the last change applied to the copy; changes at or below it are already in it. */
  private applied = 0;
  /** Messages heard while the copy is being read again, applied after it. */
  private held: Message[] | undefined;
  private reloading: Promise<void> | undefined;
  private nonce = 0;
  private readonly waiting = new Map<string, { heard: (label: ProcessLabel) => void }>();
  // What is written behind.
  private journalPending: string[] = [];
  private journalSkipped = 0;
  private touches = new Map<string, { requests: number; lastSeen: number }>();
  private serverTouch = { requests: 0, lastSeen: 0 };
  private counts = new CoverageTally();
  private scheduled = false;
  private flushing = false;
  private down: string | undefined;
  private closing = false;
  private readonly trimTimer: ReturnType<typeof setInterval>;

  private constructor(
    private readonly options: RedisStateOptions,
    private readonly command: Commander,
    private readonly subscriber: Redis,
  ) {
    this.name = `Redis at ${shownUrl(options.url)}`;
    this.p = options.prefix;
    this.trimTimer = setInterval(() => void this.trim().catch(() => undefined), TRIM_EVERY_MS);
    this.trimTimer.unref();
  }

  /** Connects, subscribes and reads the shared state; rejects with a one-line reason when Redis does not answer in CONNECT_DEADLINE_MS. */
  static async open(options: RedisStateOptions): Promise<RedisState> {
    const connection = {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_DEADLINE_MS,
      connectTimeout: Math.min(CONNECT_DEADLINE_MS, 2_000),
      retryStrategy: (times: number) => Math.min(50 * 2 ** times, RECONNECT_MAX_MS),
      connectionName: `client-records-mock:${options.process.pid}`,
    };
    const command = new Redis(options.url, connection) as Commander;
    command.defineCommand('crmChange', { numberOfKeys: 0, lua: CHANGE_LUA });
    command.defineCommand('crmTrim', { numberOfKeys: 0, lua: TRIM_LUA });
    command.defineCommand('crmJournal', { numberOfKeys: 0, lua: JOURNAL_LUA });
    command.defineCommand('crmClearSession', { numberOfKeys: 0, lua: CLEAR_SESSION_LUA });
    // A subscriber must queue its SUBSCRIBE while it reconnects (ioredis resubscribes by itself).
    const subscriber = new Redis(options.url, { ...connection, enableOfflineQueue: true, commandTimeout: undefined });
    let lastError = '';
    const remember = (error: Error) => (lastError = (error as NodeJS.ErrnoException).code ?? error.message);
    command.on('error', remember);
    subscriber.on('error', remember);
    const state = new RedisState(options, command, subscriber);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        (async () => {
          await Promise.all([command.connect(), subscriber.connect()]);
          await state.listen();
        })(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), CONNECT_DEADLINE_MS);
        }),
      ]);
    } catch (error) {
      clearInterval(state.trimTimer);
      command.disconnect();
      subscriber.disconnect();
      const reason = lastError || (error as Error).message;
      throw new Error(`no Redis answered at ${shownUrl(options.url)} within ${CONNECT_DEADLINE_MS / 1000} s (${reason})`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    command.off('error', remember);
    subscriber.off('error', remember);
    state.watchHealth();
    return state;
  }

  private events(): string {
    return `${this.p}events`;
  }

  private ackChannel(id: string): string {
    return `${this.p}ack:${id}`;
  }

  /** Subscribes to the changes and to this process's acknowledgements, then reads the copy. */
  private async listen(): Promise<void> {
    this.subscriber.on('message', (channel: string, text: string) => {
      try {
        if (channel === this.events()) this.hear(JSON.parse(text) as Message);
        else this.heard(text);
      } catch {
        // Not one of ours (another program publishing under the prefix): ignored, never a crash.
      }
    });
    await this.subscriber.subscribe(this.events(), this.ackChannel(this.id));
    await this.reload();
  }

  /** Reads the server's scenario and every session's own from Redis into the copy; changes heard meanwhile are applied after it. */
  private reload(): Promise<void> {
    // Both connections' 'ready' may ask at once: one reading at a time, or the messages held for the first would be lost.
    this.reloading ??= this.read().finally(() => (this.reloading = undefined));
    return this.reloading;
  }

  private async read(): Promise<void> {
    this.held = [];
    try {
      const [version, server, own] = (await this.command
        .multi()
        .get(`${this.p}version`)
        .get(`${this.p}server`)
        .hgetall(`${this.p}own`)
        .exec()
        .then((replies) =>
          replies!.map(([error, value]) => {
            if (error) throw error;
            return value;
          }),
        )) as [string | null, string | null, Record<string, string>];
      this.applied = Number(version ?? 0);
      this.server = server === null ? undefined : { text: server };
      this.serverChoiceCache = undefined;
      this.own.clear();
      for (const [name, text] of Object.entries(own)) this.own.set(name, { text });
    } finally {
      const held = this.held;
      this.held = undefined;
      for (const message of held) this.hear(message);
    }
  }

  /** Logs when Redis goes and comes back; on return, the copy is read again and the buffer written. */
  private watchHealth(): void {
    const { logger } = this.options;
    const lost = (error?: Error) => {
      const reason = error ? ((error as NodeJS.ErrnoException).code ?? error.message) : 'connection closed';
      if (this.down !== undefined || this.closing) return;
      this.down = reason;
      logger.error(
        { store: this.name, reason },
        `state store unreachable (${this.name}: ${reason}): the API answers from the last known scenarios, the control API answers 503 until it is back`,
      );
    };
    this.command.on('error', lost);
    this.command.on('close', () => lost());
    this.subscriber.on('error', lost);
    this.subscriber.on('close', () => lost());
    this.command.on('ready', () => {
      if (this.subscriber.status === 'ready') this.back();
    });
    this.subscriber.on('ready', () => {
      if (this.command.status === 'ready') this.back();
    });
  }

  private back(): void {
    void this.reload()
      .then(() => {
        if (this.down === undefined) return;
        this.down = undefined;
        this.options.logger.info({ store: this.name }, `state store back (${this.name}): state read again, buffered exchanges written`);
        this.schedule();
      })
      .catch(() => undefined);
  }

  // --- the copy: changes heard on `events` ---

  private hear(message: Message): void {
    if (this.held) {
      this.held.push(message);
      return;
    }
    if (message.t === 'change' && message.v > this.applied) {
      this.applied = message.v;
      switch (message.op) {
        case 'server':
          this.server = message.text === '' ? undefined : { text: message.text };
          this.serverChoiceCache = undefined;
          break;
        case 'session':
          this.own.set(message.name, { text: message.text });
          break;
        case 'forget':
          // cjson writes an empty list as {}.
          for (const name of Array.isArray(message.names) ? message.names : []) this.own.delete(name);
          break;
        case 'forget-all':
          this.own.clear();
          break;
      }
    }
    // Acknowledged after what this process buffered, on the same connection: Redis has it first.
    if (message.nonce !== '') this.flush(message.from, message.nonce);
  }

  private heard(text: string): void {
    const space = text.indexOf(' ');
    this.waiting.get(text.slice(0, space))?.heard(JSON.parse(text.slice(space + 1)) as ProcessLabel);
  }

  /** Publishes (`publish` resolves to how many processes heard it) and waits until each acknowledged, or ACK_DEADLINE_MS passed; resolves to those that did. */
  private acknowledged(nonce: string, publish: () => Promise<number>): Promise<ProcessLabel[]> {
    return new Promise((resolve, reject) => {
      let expected: number | undefined;
      const heard: ProcessLabel[] = [];
      const finish = () => {
        clearTimeout(timer);
        this.waiting.delete(nonce);
        if (expected !== undefined && heard.length < expected) {
          this.options.logger.warn(
            { store: this.name, expected, heard: heard.length },
            `state store: ${expected - heard.length} of ${expected} processes did not acknowledge within ${ACK_DEADLINE_MS} ms`,
          );
        }
        resolve(heard);
      };
      const timer = setTimeout(finish, ACK_DEADLINE_MS);
      this.waiting.set(nonce, {
        heard: (label) => {
          heard.push(label);
          if (expected !== undefined && heard.length >= expected) finish();
        },
      });
      publish().then(
        (receivers) => {
          expected = receivers;
          if (heard.length >= receivers) finish();
        },
        (error: unknown) => {
          clearTimeout(timer);
          this.waiting.delete(nonce);
          reject(this.unavailable(error));
        },
      );
    });
  }

  private nextNonce(): string {
    this.nonce += 1;
    return `${this.id}:${this.nonce}`;
  }

  /** Every process writes what it buffered before this resolves; resolves to the processes that answered. */
  private barrier(): Promise<ProcessLabel[]> {
    this.ready();
    const nonce = this.nextNonce();
    const message: Message = { t: 'sync', from: this.id, nonce };
    return this.acknowledged(nonce, () => this.command.publish(this.events(), JSON.stringify(message)));
  }

  private async change(op: string, ...args: (string | number)[]): Promise<void> {
    this.ready();
    const nonce = this.nextNonce();
    await this.acknowledged(nonce, async () => {
      const receivers = await this.command.crmChange(this.p, op, this.id, nonce, ...args);
      return receivers < 0 ? 0 : receivers;
    });
  }

  /** Throws StoreUnavailable unless both connections are up. */
  private ready(): void {
    if (this.command.status !== 'ready' || this.subscriber.status !== 'ready') {
      throw new StoreUnavailable(`the state store (${this.name}) is unreachable${this.down ? ` (${this.down})` : ''}`);
    }
  }

  private unavailable(error: unknown): Error {
    if (error instanceof StoreUnavailable) return error;
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return new StoreUnavailable(`the state store (${this.name}) did not answer (${reason})`);
  }

  private async call<T>(make: () => Promise<T>): Promise<T> {
    this.ready();
    try {
      return await make();
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  // --- the request path ---

  useTable(table: ScenarioTable, initial?: ScenarioChoice): void {
    this.table = table;
    this.serverChoiceCache = undefined;
    for (const kept of this.own.values()) delete kept.choice;
    if (initial && this.server === undefined) {
      const text = textOf(initial, Date.now());
      this.server = { text };
      // Taken only if no process set one meanwhile (a replica that restarts keeps what was set); else read again.
      void this.command.crmChange(this.p, 'server-initial', this.id, '', text).then(
        (receivers) => (receivers < 0 ? this.reload() : undefined),
        (error: unknown) => {
          this.options.logger.error({ store: this.name, err: error }, 'state store: could not write the server scenario at start');
        },
      );
    }
  }

  private choiceOf(kept: Kept): ScenarioChoice {
    if (kept.choice) return kept.choice;
    const header = kept.text.slice(kept.text.indexOf('|') + 1);
    try {
      kept.choice = this.table.parse(header, 'the stored scenario');
    } catch {
      // Written by a mock serving another spec: normal here, said once.
      this.options.logger.warn(
        { store: this.name, scenario: header },
        'state store holds a scenario this spec does not have; answered as normal',
      );
      kept.choice = this.table.normal;
    }
    return kept.choice;
  }

  serverChoice(): ScenarioChoice {
    this.serverChoiceCache ??= this.server ? this.choiceOf(this.server) : this.table.normal;
    return this.serverChoiceCache;
  }

  sessionChoice(session: string): ScenarioChoice | undefined {
    const kept = this.own.get(session);
    return kept && this.choiceOf(kept);
  }

  touch(session: string | undefined, at: number): void {
    this.serverTouch.requests += 1;
    this.serverTouch.lastSeen = at;
    if (session !== undefined) {
      const touched = this.touches.get(session);
      if (touched) {
        touched.requests += 1;
        touched.lastSeen = at;
      } else if (this.touches.size < PENDING_SESSIONS_MAX) this.touches.set(session, { requests: 1, lastSeen: at });
    }
    this.schedule();
  }

  record(exchange: Exchange): void {
    if (this.options.journalSize === 0) return;
    // id 0 here; the script gives the shared one (JOURNAL_LUA cuts the first 7 characters, `{"id":0`).
    this.journalPending.push(JSON.stringify(entryOf(exchange, 0, this.options.process)));
    if (this.journalPending.length > this.options.journalSize) {
      this.journalPending.shift();
      this.journalSkipped += 1;
    }
    this.schedule();
  }

  count(operationId: string | undefined, status: number, parameters: readonly string[], scenario: string): void {
    this.counts.record(operationId, status, parameters, scenario);
    this.schedule();
  }

  // --- writing behind ---

  private schedule(): void {
    if (this.scheduled || this.flushing) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /**
   * Writes what is buffered in one pipeline; `ackTo` adds an acknowledgement
   * after it, on the same connection. While Redis is unreachable the buffer
   * is kept (bounded) for when it is back.
   */
  private flush(ackTo?: string, nonce?: string): void {
    if (this.command.status !== 'ready') return;
    const batch = this.command.pipeline() as Batch;
    let commands = 0;
    const p = this.p;
    if (this.journalPending.length > 0) {
      batch.crmJournal(p, this.options.journalSize, ...this.journalPending);
      commands += 1;
      this.journalPending = [];
    }
    if (this.journalSkipped > 0) {
      batch.incrby(`${p}journal:ids`, this.journalSkipped);
      this.journalSkipped = 0;
    }
    if (this.serverTouch.requests > 0) {
      batch
        .hincrby(`${p}server:stats`, 'requests', this.serverTouch.requests)
        .hset(`${p}server:stats`, 'lastSeen', this.serverTouch.lastSeen);
      this.serverTouch = { requests: 0, lastSeen: 0 };
      commands += 1;
    }
    if (this.touches.size > 0) {
      for (const [name, touched] of this.touches) {
        batch
          .zadd(`${p}sessions`, 'GT', touched.lastSeen, name)
          .hincrby(`${p}requests`, name, touched.requests)
          .hset(`${p}seen`, name, touched.lastSeen);
      }
      this.touches = new Map();
      batch.crmTrim(p, this.id, Date.now() - this.options.sessionTtlSeconds * 1000, SESSION_CAPACITY);
      commands += 1;
    }
    if (this.counts.requests > 0) {
      const key = `${p}coverage`;
      batch.hincrby(key, 'requests', this.counts.requests);
      for (const operation of this.counts.operations()) {
        batch.hincrby(key, `r\u0000${operation.operationId}`, operation.requests);
        for (const status of operation.statuses) batch.hset(key, `s\u0000${operation.operationId}\u0000${status}`, 1);
        for (const name of operation.parameters) batch.hset(key, `p\u0000${operation.operationId}\u0000${name}`, 1);
        for (const scenario of operation.scenarios) batch.hset(key, `c\u0000${operation.operationId}\u0000${scenario}`, 1);
      }
      this.counts = new CoverageTally();
      commands += 1;
    }
    if (ackTo !== undefined && nonce !== undefined) {
      batch.publish(this.ackChannel(ackTo), `${nonce} ${JSON.stringify(this.options.process)}`);
      commands += 1;
    }
    if (commands === 0) return;
    this.flushing = true;
    batch
      .exec()
      .catch((error: unknown) => {
        this.options.logger.warn({ store: this.name, err: error }, 'state store: a batch of exchanges was not written');
      })
      .finally(() => {
        this.flushing = false;
        if (this.journalPending.length > 0 || this.serverTouch.requests > 0 || this.touches.size > 0 || this.counts.requests > 0)
          this.schedule();
      });
  }

  private async trim(): Promise<void> {
    if (this.command.status !== 'ready') return;
    await this.command.crmTrim(this.p, this.id, Date.now() - this.options.sessionTtlSeconds * 1000, SESSION_CAPACITY);
  }

  // --- the control API's changes ---

  setServer(choice: ScenarioChoice, at: number): Promise<void> {
    return this.change('server', choice.kind === 'normal' ? '' : textOf(choice, at));
  }

  setSession(session: string, choice: ScenarioChoice, at: number): Promise<void> {
    return this.change('session', session, textOf(choice, at), at);
  }

  async resetSession(session: string): Promise<void> {
    await this.barrier();
    await this.change('forget', session);
  }

  async resetSessions(): Promise<void> {
    await this.barrier();
    await this.change('forget-all');
  }

  async clearJournal(session?: string): Promise<void> {
    await this.barrier();
    await this.call(() => (session === undefined ? this.command.del(`${this.p}journal`) : this.command.crmClearSession(this.p, session)));
  }

  async resetCoverage(): Promise<void> {
    await this.barrier();
    await this.call(() => this.command.del(`${this.p}coverage`));
  }

  // --- the control API's reads ---

  async state(session?: string): Promise<ScenarioState> {
    await this.barrier();
    const p = this.p;
    const [server, stats, own, requests, seen] = await this.call(async () => {
      const replies = await this.command
        .multi()
        .get(`${p}server`)
        .hmget(`${p}server:stats`, 'requests', 'lastSeen')
        .hget(`${p}own`, session ?? '')
        .hget(`${p}requests`, session ?? '')
        .hget(`${p}seen`, session ?? '')
        .exec();
      return replies!.map(([error, value]) => {
        if (error) throw error;
        return value;
      }) as [string | null, (string | null)[], string | null, string | null, string | null];
    });
    const serverRecord = this.serverRecord(server, stats);
    if (session === undefined) return scenarioState(undefined, undefined, serverRecord, this.options.process);
    const record = own === null && requests === null ? undefined : this.sessionRecord(own, requests, seen);
    return scenarioState(session, record, serverRecord, this.options.process);
  }

  private serverRecord(text: string | null, stats: (string | null)[]): SessionRecord & { choice: ScenarioChoice } {
    const kept = text === null ? undefined : { text };
    return {
      choice: kept ? this.choiceOf(kept) : this.table.normal,
      since: kept ? Number(text!.slice(0, text!.indexOf('|'))) : undefined,
      requests: Number(stats[0] ?? 0),
      lastSeen: stats[1] ? Number(stats[1]) : undefined,
    };
  }

  private sessionRecord(own: string | null, requests: string | null, seen: string | null): SessionRecord {
    const kept = own === null ? undefined : { text: own };
    return {
      choice: kept && this.choiceOf(kept),
      since: kept ? Number(own!.slice(0, own!.indexOf('|'))) : undefined,
      requests: Number(requests ?? 0),
      lastSeen: seen ? Number(seen) : undefined,
    };
  }

  async sessions(limit: number): Promise<SessionList> {
    await this.barrier();
    const p = this.p;
    return this.call(async () => {
      const [names, known, server, stats] = (await this.command
        .multi()
        .zrevrange(`${p}sessions`, 0, limit - 1)
        .zcard(`${p}sessions`)
        .get(`${p}server`)
        .hmget(`${p}server:stats`, 'requests', 'lastSeen')
        .exec()
        .then((replies) =>
          replies!.map(([error, value]) => {
            if (error) throw error;
            return value;
          }),
        )) as [string[], number, string | null, (string | null)[]];
      const serverRecord = this.serverRecord(server, stats);
      const [own, requests, seen] =
        names.length === 0
          ? [[], [], []]
          : await Promise.all([
              this.command.hmget(`${p}own`, ...names),
              this.command.hmget(`${p}requests`, ...names),
              this.command.hmget(`${p}seen`, ...names),
            ]);
      return {
        sessions: names.map((name, i) =>
          scenarioState(name, this.sessionRecord(own[i] ?? null, requests[i] ?? null, seen[i] ?? null), serverRecord, this.options.process),
        ),
        known,
        capacity: SESSION_CAPACITY,
      };
    });
  }

  async journal(query: JournalQuery): Promise<JournalPage> {
    const processes = await this.barrier();
    const [texts, ids] = await this.call(() =>
      Promise.all([this.command.lrange(`${this.p}journal`, 0, -1), this.command.get(`${this.p}journal:ids`)]),
    );
    const matching: JournalEntry[] = [];
    for (let i = texts.length - 1; i >= 0; i--) {
      const entry = JSON.parse(texts[i]!) as JournalEntry;
      if (entryMatches(entry, query)) matching.push(entry);
    }
    return {
      entries: matching.slice(0, query.limit),
      matching: matching.length,
      kept: texts.length,
      dropped: Math.max(0, Number(ids ?? 0) - texts.length),
      capacity: this.options.journalSize,
      processes,
    };
  }

  async tally(): Promise<CoverageTally> {
    await this.barrier();
    const fields = await this.call(() => this.command.hgetall(`${this.p}coverage`));
    const tally = new CoverageTally();
    const seen = new Map<string, { statuses: string[]; parameters: string[]; scenarios: string[] }>();
    const of = (operationId: string) => {
      let found = seen.get(operationId);
      if (!found) seen.set(operationId, (found = { statuses: [], parameters: [], scenarios: [] }));
      return found;
    };
    let reached = 0;
    const byOperation = new Map<string, number>();
    for (const [field, value] of Object.entries(fields)) {
      const [kind, operationId, item] = field.split('\u0000') as [string, string, string];
      if (kind === 'r') byOperation.set(operationId, Number(value));
      else if (kind === 's') of(operationId).statuses.push(item);
      else if (kind === 'p') of(operationId).parameters.push(item);
      else if (kind === 'c') of(operationId).scenarios.push(item);
    }
    for (const [operationId, requests] of byOperation) {
      tally.add(operationId, requests, seen.get(operationId));
      reached += requests;
    }
    // Requests that reached no operation.
    tally.add(undefined, Number(fields.requests ?? 0) - reached);
    return tally;
  }

  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.trimTimer);
    if (this.command.status === 'ready') {
      this.flush();
      // The last batch is sent before QUIT on the same connection.
      await this.command.quit().catch(() => undefined);
    } else this.command.disconnect();
    this.subscriber.disconnect();
  }
}

/** Opens the Redis store (the one entry point the dynamic import uses). */
export function openRedisState(options: RedisStateOptions): Promise<RedisState> {
  return RedisState.open(options);
}
