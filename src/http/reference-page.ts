import { escape } from './html.js';

/**
 * The reference page of an application, rendered on the server from its OpenAPI document: one
 * section per capability (tag), each operation with its explanation, parameters, an example
 * request and an example response. Plain HTML and inline CSS: nothing to load, nothing to fail,
 * readable on a phone. Not Swagger UI: it stops listing operations past about 150 operations and
 * tags.
 */

type Json = Record<string, unknown>;
interface Parameter { name: string; in: string; required?: boolean; description?: string; schema?: Json }
interface Media { schema?: Json; example?: unknown }
interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { description?: string; content?: Record<string, Media> };
  responses?: Record<string, { description?: string; content?: Record<string, Media> }>;
}
interface Document {
  info: { title: string; description?: string };
  servers?: { url: string }[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Descriptions use a little Markdown: paragraphs and `code`. */
const inline = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function prose(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((paragraph) => `<p>${inline(paragraph)}</p>`)
    .join('\n');
}

function resolve(document: Document, schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  return document.components?.schemas?.[ref.split('/').pop()!];
}

function typeOf(document: Document, schema: Json | undefined): string {
  const resolved = resolve(document, schema);
  if (!resolved) return '';
  if (Array.isArray(resolved.enum)) return resolved.enum.map(String).join(' | ');
  const type = resolved.type;
  if (type === 'array') return `array of ${typeOf(document, resolved.items as Json) || 'values'}`;
  const variants = (resolved.anyOf ?? resolved.oneOf) as Json[] | undefined;
  const named = Array.isArray(type) ? type.join(' or ') : typeof type === 'string' ? type : variants ? variants.map((v) => typeOf(document, v)).join(' or ') : '';
  return typeof resolved.format === 'string' ? `${named} (${resolved.format})` : named;
}

function example(value: unknown): string {
  return `<pre>${escape(typeof value === 'string' ? value : JSON.stringify(value, null, 2))}</pre>`;
}

function parametersTable(document: Document, parameters: Parameter[]) {
  if (parameters.length === 0) return '';
  const rows = parameters
    .map((p) => `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}${p.required ? ', required' : ''}</td><td>${escape(typeOf(document, p.schema))}</td><td>${inline(p.description ?? '')}</td></tr>`)
    .join('\n');
  return `<h4>Parameters</h4><div class="scroll"><table><thead><tr><th>name</th><th>in</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function fieldsTable(document: Document, schema: Json | undefined) {
  let resolved = resolve(document, schema);
  if (resolved?.type === 'array') resolved = resolve(document, resolved.items as Json);
  const properties = resolved?.properties as Record<string, Json> | undefined;
  if (!properties || Object.keys(properties).length === 0) return '';
  const required = new Set((resolved?.required as string[] | undefined) ?? []);
  const rows = Object.entries(properties)
    .map(([name, property]) => {
      const described = resolve(document, property);
      return `<tr><td><code>${escape(name)}</code>${required.has(name) ? ' *' : ''}</td><td>${escape(typeOf(document, property))}</td><td>${inline(typeof described?.description === 'string' ? described.description : '')}</td></tr>`;
    })
    .join('\n');
  return `<div class="scroll"><table><thead><tr><th>field (* required)</th><th>type</th><th>meaning</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function bodySection(document: Document, title: string, content: Record<string, Media> | undefined) {
  const [type, media] = Object.entries(content ?? {})[0] ?? [];
  if (!type || !media) return '';
  const shown = media.example !== undefined ? example(media.example) : '';
  return `<h4>${escape(title)} <small>${escape(type)}</small></h4>${fieldsTable(document, media.schema)}${shown}`;
}

const anchorOf = (method: string, path: string) => `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/-+$/, '');

function operationSection(document: Document, method: string, path: string, operation: Operation, aliases: string[]) {
  const responses = Object.entries(operation.responses ?? {});
  const success = responses.find(([status]) => /^2/.test(status)) ?? responses.find(([status]) => /^3/.test(status));
  const statuses = responses.map(([status, r]) => `<li><strong>${escape(status)}</strong> ${escape(r.description ?? '')}</li>`).join('');
  const id = anchorOf(method, path);
  return `<section class="op" id="${escape(id)}">
<h3><a href="#${escape(id)}"><span class="method ${escape(method)}">${escape(method.toUpperCase())}</span> <code class="path">${escape(path)}</code></a></h3>
${aliases.map((alias) => `<p class="alias">Also answers at <code>${escape(alias)}</code>.</p>`).join('')}
<p class="summary">${escape(operation.summary ?? '')}</p>
${prose(operation.description)}
${parametersTable(document, operation.parameters ?? [])}
${operation.requestBody ? bodySection(document, 'Example request body', operation.requestBody.content) : ''}
${success ? bodySection(document, `Example response (${success[0]})`, success[1].content) : ''}
<details><summary>Every response</summary><ul>${statuses}</ul></details>
</section>`;
}

/** `/api/Portfolio/Clients` when `/api/v1/Portfolio/Clients` is the same operation: listed once, under the versioned path. */
function versionedTwin(document: Document, basePath: string, path: string, method: string): string | undefined {
  const base = basePath === '/' ? '' : basePath;
  if (!path.startsWith(`${base}/`) || /^\/v\d+\//.test(path.slice(base.length))) return undefined;
  const twin = `${base}/v1${path.slice(base.length)}`;
  const other = document.paths[twin]?.[method];
  const own = document.paths[path]?.[method];
  return other && own && other.summary === own.summary ? twin : undefined;
}

export function referencePage(document: Document, links: { basePath: string; home: string; openapi: string }) {
  const byTag = new Map<string, string[]>();
  const aliases = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      if (!item[method]) continue;
      const twin = versionedTwin(document, links.basePath, path, method);
      if (twin) aliases.set(`${method} ${twin}`, [...(aliases.get(`${method} ${twin}`) ?? []), path]);
    }
  }
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || versionedTwin(document, links.basePath, path, method)) continue;
      const tag = operation.tags?.[0] ?? 'Other';
      const html = operationSection(document, method, path, operation, aliases.get(`${method} ${path}`) ?? []);
      byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
    }
  }
  const tags = [...(document.tags ?? []).filter((t) => byTag.has(t.name)), ...[...byTag.keys()].filter((name) => !document.tags?.some((t) => t.name === name)).map((name) => ({ name, description: '' }))];
  const tagId = (name: string) => `tag-${name.replace(/[^A-Za-z0-9]+/g, '-')}`;
  const nav = tags.map((t) => `<li><a href="#${escape(tagId(t.name))}">${escape(t.name)}</a> <small>${byTag.get(t.name)!.length}</small></li>`).join('');
  const sections = tags
    .map((t) => `<section class="tag" id="${escape(tagId(t.name))}"><h2>${escape(t.name)}</h2>${prose(t.description)}${byTag.get(t.name)!.join('\n')}</section>`)
    .join('\n');
  const server = document.servers?.[0]?.url;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)}: reference</title>
<style>
  *, *::before, *::after { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; color: #1d2733; margin: 0; line-height: 1.45; background: #f4f6f8; }
  header, main { max-width: 62rem; margin: 0 auto; padding: 1rem; }
  header { background: #fff; border-bottom: 1px solid #d5dbe2; max-width: none; }
  header > div { max-width: 60rem; margin: 0 auto; }
  h1 { font-size: 1.5rem; margin: .25rem 0; }
  h2 { font-size: 1.3rem; margin: 2rem 0 .25rem; }
  h3 { font-size: 1rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
  h3 a { color: inherit; text-decoration: none; }
  h4 { font-size: .9rem; margin: 1rem 0 .35rem; }
  nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem .9rem; }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem; }
  p, li, code { overflow-wrap: anywhere; }
  pre { background: #1d2733; color: #e8edf2; border-radius: 6px; padding: .6rem .75rem; overflow-x: auto; max-height: 28rem; }
  .op { background: #fff; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.06); padding: 1rem; margin: .75rem 0; min-width: 0; }
  .method { display: inline-block; min-width: 4.2rem; text-align: center; border-radius: 4px; padding: .1rem .4rem; color: #fff; font-size: .8rem; }
  .get { background: #1f5fae; } .post { background: #2e7d32; } .put { background: #a15c00; } .delete { background: #b3261e; } .patch { background: #6a3fa0; }
  .path { overflow-wrap: anywhere; }
  .summary { font-weight: 600; margin: .35rem 0; }
  .alias { color: #52606d; font-size: .85rem; margin: 0; }
  .scroll { overflow-x: auto; }
  table { border-collapse: collapse; font-size: .85rem; width: 100%; }
  th, td { text-align: left; vertical-align: top; border-bottom: 1px solid #e4e8ee; padding: .3rem .4rem; }
  small { color: #52606d; font-weight: 400; }
</style>
</head>
<body>
<header><div>
<p><a href="${escape(links.home)}">All applications</a> · <a href="${escape(links.openapi)}">OpenAPI document</a></p>
<h1>${escape(document.info.title)}</h1>
${server ? `<p>Server: <code>${escape(server)}</code></p>` : ''}
${prose(document.info.description)}
<nav><ul>${nav}</ul></nav>
</div></header>
<main>
${sections}
</main>
</body>
</html>`;
}
