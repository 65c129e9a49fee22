/**
 * A PDF's text as a reader sees it, through poppler's pdftotext (Debian poppler-utils, installed by
 * .ci/run): the PDFs embed subsets of Unicode fonts, whose text only a real PDF reader decodes.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export const HAS_PDFTOTEXT = !spawnSync('pdftotext', ['-v']).error;
/** The reason a test that reads a PDF's text is skipped. */
export const NO_PDFTOTEXT = 'skipped: pdftotext is missing (apt-get install poppler-utils)';

/** The file's text, its pages separated by a form feed (\f), as pdftotext writes them. */
export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
}

/** The text of each page. */
export const pdfPages = (pdf: Buffer) => pdfText(pdf).split('\f').slice(0, -1);
