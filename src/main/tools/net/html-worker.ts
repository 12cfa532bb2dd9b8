// Worker-thread entry for HTML → markdown: a page that is slow to convert costs this thread, not
// the main one (which serves the UI, the API and every run), and can be terminated on time.
import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown, type PageMarkdown } from './html-to-markdown';

export interface HtmlJob {
  html: string;
  baseUrl: string;
  maxChars: number;
}

export type HtmlAnswer = ({ ok: true } & PageMarkdown) | { ok: false; message: string };

parentPort?.once('message', (job: HtmlJob) => {
  let answer: HtmlAnswer;
  try {
    answer = { ok: true, ...htmlToMarkdown(job.html, job.baseUrl, job.maxChars) };
  } catch (err) {
    answer = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(answer);
});
