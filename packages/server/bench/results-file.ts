// bench/RESULTS.md (or another results file) holds one section per benchmark; a run replaces its own section and keeps
// the others.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const resultsFile = new URL('./RESULTS.md', import.meta.url);

/** Where the line `title` starts, if the text has it. */
function headingAt(text: string, title: string): number | undefined {
  if (text.startsWith(`${title}\n`)) return 0;
  const at = text.indexOf(`\n${title}\n`);
  return at === -1 ? undefined : at + 1;
}

/** Replaces the section headed exactly `title` (up to the next `## ` heading), or appends it. */
export function writeSection(title: string, body: string, file: URL = resultsFile): void {
  const previous = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const section = `${title}\n\n${body.trimEnd()}`;
  const start = headingAt(previous, title);
  if (start === undefined) {
    writeFileSync(file, `${previous.trimEnd()}\n\n${section}\n`);
    return;
  }
  const next = previous.indexOf('\n## ', start + title.length);
  const after = next === -1 ? '' : `\n\n${previous.slice(next + 1).trimEnd()}`;
  const before = previous.slice(0, start).trimEnd();
  writeFileSync(file, `${before === '' ? '' : `${before}\n\n`}${section}${after}\n`);
}
