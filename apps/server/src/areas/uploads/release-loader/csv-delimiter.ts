/** The delimiter of a CSV file, from its header line: plain code, which the stage worker's typing reads too (stage-typer.ts). */

/** `;` or `,`: whichever the header line has more of outside quotes (`,` on a tie). */
export function detectDelimiter(head: Buffer): ';' | ',' {
  const end = head.indexOf(0x0a);
  const line = head.subarray(0, end === -1 ? head.length : end).toString('utf8');
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch === ';') semicolons++;
    else if (!quoted && ch === ',') commas++;
  }
  return semicolons > commas ? ';' : ',';
}
