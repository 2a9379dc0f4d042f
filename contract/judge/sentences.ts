// The sentence table, built from the document rather than typed: every
// sentence of every `description` and `summary` in openapi.yaml, split
// mechanically (markdown headings name a section, each table row and list
// item is its own text, prose is cut after `.`, `!` or `?` before a capital,
// never inside a code span or after `e.g.`), each with a stable id made of
// where it stands and what it says. sentence-map.ts maps each id to the rules
// (the judge's and the checks' own) that enforce it, or to the reason none
// can; tests/contract/sentences.test.ts fails when a sentence of the document
// has neither, so a sentence added to the spec cannot go unchecked silently.
import { createHash } from 'node:crypto';
import type { SentenceCoverage } from '../coverage-report';
import type { OpenApiDocument } from '../spec';
import { SENTENCE_MAP, type SentenceEntry } from './sentence-map';

export type { SentenceEntry };

export interface SpecSentence {
  /** `<location>:<first words>-<hash of the text>`, e.g. `getClientsExtended.param.filter:trimmed-empty-means-no-5d41a2`. */
  id: string;
  /** Where it stands: `info#authentication`, `getClientDetail.description`, `schema.PersonalId`, `getClientsSimple.200.typical`. */
  location: string;
  text: string;
}

type Json = Record<string, unknown>;

const ABBREVIATIONS = /(?:\b(?:e\.g|i\.e|etc|vs|cf|approx)\.)$/i;

function slug(text: string): string {
  return (
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/`[^`]*`/g, (code) => code.replace(/[^a-z0-9]+/g, ''))
      .split(/[^a-z0-9]+/)
      .filter(Boolean)
      .slice(0, 4)
      .join('-') || 'text'
  );
}

function hash(text: string): string {
  return createHash('sha1').update(text).digest('hex').slice(0, 6);
}

/** Sentences of one paragraph (lines already joined): cut after . ! ? followed by white space and a capital, a digit, a quote or a code span. */
export function splitSentences(paragraph: string): string[] {
  // Code spans are masked so that a `.` inside one never ends a sentence.
  const spans: string[] = [];
  const masked = paragraph.replace(/`[^`]*`/g, (code) => {
    spans.push(code);
    return `\uE000${spans.length - 1}\uE000`;
  });
  const sentences: string[] = [];
  let start = 0;
  const boundary = /[.!?](?=\s+(?:[A-Z0-9"'(\uE000]))/g;
  for (let match = boundary.exec(masked); match; match = boundary.exec(masked)) {
    const candidate = masked.slice(start, match.index + 1);
    if (ABBREVIATIONS.test(candidate)) continue;
    sentences.push(candidate);
    start = match.index + 1;
  }
  sentences.push(masked.slice(start));
  const unmask = (text: string) => text.replace(/\uE000(\d+)\uE000/g, (_m, i: string) => spans[Number(i)]!);
  return sentences.map((sentence) => unmask(sentence).trim()).filter((sentence) => sentence !== '');
}

/** The texts of a (markdown) description: [section, text] pairs, one per prose sentence, table row or list item. */
function textsOf(description: string): { section?: string; text: string }[] {
  const texts: { section?: string; text: string }[] = [];
  let section: string | undefined;
  let paragraph: string[] = [];
  let header = true;
  const flush = () => {
    if (paragraph.length > 0) for (const text of splitSentences(paragraph.join(' '))) texts.push({ section, text });
    paragraph = [];
  };
  for (const raw of description.split('\n')) {
    const line = raw.trim();
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      section = slug(heading[1]!.replace(/[:,]/g, ' ')).split('-').slice(0, 3).join('-');
      continue;
    }
    if (line.startsWith('|')) {
      flush();
      const cells = line
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim());
      if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
      // The first row of a table is its header, not a sentence.
      if (header) {
        header = false;
        continue;
      }
      texts.push({ section, text: cells.join(' | ') });
      continue;
    }
    header = true;
    if (line === '') {
      flush();
      continue;
    }
    const item = /^[-*]\s+(.*)$/.exec(line);
    if (item) {
      flush();
      paragraph.push(item[1]!);
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return texts;
}

/** A readable location for a node's path in the document. */
function locationOf(path: readonly string[], document: OpenApiDocument): string {
  const parts = [...path];
  if (parts[0] === 'paths' && parts.length >= 3) {
    const operation = (document.paths[parts[1]!]?.[parts[2]!] as Json | undefined)?.operationId;
    parts.splice(0, 3, typeof operation === 'string' ? operation : `${parts[2]} ${parts[1]}`);
  } else if (parts[0] === 'components' && parts.length >= 3) {
    const kind = { schemas: 'schema', parameters: 'param', headers: 'header', responses: 'response', securitySchemes: 'security' }[
      parts[1]!
    ];
    parts.splice(0, 3, `${kind ?? parts[1]}.${parts[2]}`);
  }
  return parts
    .filter(
      (part, i) =>
        !(part === 'content' || (parts[i - 1] === 'content' && part.includes('/')) || part === 'examples' || part === 'properties'),
    )
    .map((part) => (part === 'responses' ? '' : part === 'parameters' ? 'param' : part))
    .filter(Boolean)
    .join('.');
}

/**
 * Every sentence of every `description` and `summary` of the document, in
 * document order. Example values are data, not prose, and are not walked.
 */
export function specSentences(document: OpenApiDocument): SpecSentence[] {
  const sentences: SpecSentence[] = [];
  const ids = new Set<string>();
  const walk = (node: unknown, path: string[]) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        const named = item as Json | null;
        const name = typeof named?.name === 'string' ? named.name : typeof named?.url === 'string' ? 'server' : String(i);
        walk(item, [...path, name]);
      });
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node as Json)) {
      if (key === 'value' || key === 'example' || key === 'enum' || key === 'default') continue;
      if ((key === 'description' || key === 'summary') && typeof value === 'string') {
        const base = locationOf(path, document);
        for (const { section, text } of textsOf(value)) {
          const location = `${base}${key === 'summary' ? '.summary' : ''}${section ? `#${section}` : ''}` || key;
          let id = `${location}:${slug(text)}-${hash(text)}`;
          for (let n = 2; ids.has(id); n += 1) id = `${location}:${slug(text)}-${hash(text)}-${n}`;
          ids.add(id);
          sentences.push({ id, location, text });
        }
        continue;
      }
      walk(value, [...path, key]);
    }
  };
  walk(document, []);
  return sentences;
}

let byRule: Map<string, string[]> | undefined;

/** The ids of the sentences a rule enforces (the table read backwards). */
export function sentencesFor(rule: string): string[] {
  if (!byRule) {
    byRule = new Map();
    for (const [id, entry] of Object.entries(SENTENCE_MAP))
      for (const ruleId of entry.rules ?? []) byRule.set(ruleId, [...(byRule.get(ruleId) ?? []), id]);
  }
  return byRule.get(rule) ?? [];
}

/**
 * The sentences of the document in use, enforced or not in this run: a
 * sentence counts as enforced when a rule the table maps it to was applied
 * (by the judge to an exchange, or by a check that ran to its end or failed).
 * A sentence the table does not know (another version of the document, --spec)
 * is reported as such.
 */
export function sentenceCoverage(document: OpenApiDocument, exercised: ReadonlySet<string>): SentenceCoverage {
  const sentences = specSentences(document);
  const unenforced = sentences.flatMap((sentence) => {
    const entry: SentenceEntry | undefined = SENTENCE_MAP[sentence.id];
    if (!entry)
      return [
        {
          id: sentence.id,
          text: sentence.text,
          reason: "not in this suite's sentence table: a sentence this version of the suite does not know",
        },
      ];
    if (entry.reason !== undefined) return [{ id: sentence.id, text: sentence.text, reason: entry.reason }];
    const rules = entry.rules ?? [];
    if (rules.some((rule) => exercised.has(rule))) return [];
    return [
      {
        id: sentence.id,
        text: sentence.text,
        reason: `its rules (${rules.join(', ')}) were not applied in this run (checks skipped or failed to start)`,
      },
    ];
  });
  return { enforced: sentences.length - unenforced.length, total: sentences.length, unenforced };
}
