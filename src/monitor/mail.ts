/**
 * Monitor email: one SMTP transport per process (nodemailer, pooled), and the check summary
 * message (plain text and a small HTML version; diffs inline when asked for).
 */
import nodemailer from 'nodemailer';
import type { MonitorRecord, PageRecord } from './store.js';
import { meaningful, type CheckView } from './views.js';

export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(msg: MailMessage & { to: string[] }): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(msg) {
      await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
    },
    close: () => transport.close(),
  };
}

/** Diff text beyond this many characters per page is cut, so one huge page cannot swamp the mail. */
const MAX_DIFF_CHARS = 20_000;
const MAX_PAGES_LISTED = 200;

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Whether the change mattered for the monitor's goal, and why, when it was judged. */
function verdict(p: PageRecord): string | undefined {
  const m = meaningful(p);
  if (m === null) return undefined;
  const reason = (p.judgment as { reason?: unknown }).reason;
  return `${m ? 'Meaningful for the goal' : 'Not meaningful for the goal'}${typeof reason === 'string' && reason ? `: ${reason}` : ''}`;
}

export function checkSummaryEmail(monitor: MonitorRecord, check: CheckView, pages: PageRecord[], includeDiffs: boolean): MailMessage {
  const s = check.summary;
  const judged = pages.filter((p) => meaningful(p) !== null);
  const mattered = judged.length ? `; ${judged.filter((p) => meaningful(p)).length} of ${judged.length} judged changes meaningful for the goal` : '';
  const counts = `${s.changed} changed, ${s.new} new, ${s.removed} removed, ${s.error} errors, ${s.same} unchanged (${s.totalPages} pages)${mattered}`;
  const subject = `[${monitor.name}] ${s.changed + s.new + s.removed > 0 ? `${s.changed + s.new + s.removed} page changes` : `check ${check.status}`}`;
  const listed = pages.filter((p) => p.status !== 'same').slice(0, MAX_PAGES_LISTED);
  const diffOf = (p: PageRecord) => {
    const text = (p.diff as { text?: string } | null)?.text;
    if (!includeDiffs || !text) return undefined;
    return text.length > MAX_DIFF_CHARS ? `${text.slice(0, MAX_DIFF_CHARS)}\n... (diff cut at ${MAX_DIFF_CHARS} characters)` : text;
  };
  const textLines = [
    `Monitor: ${monitor.name} (${monitor.id})`,
    `Check: ${check.id}, ${check.status}, finished ${check.finishedAt ?? ''}`,
    `Summary: ${counts}`,
    ...(check.error ? [`Errors: ${check.error}`] : []),
    '',
  ];
  for (const p of listed) {
    textLines.push(`${p.status.toUpperCase()}: ${p.url}${p.error ? ` (${p.error})` : ''}`);
    const v = verdict(p);
    if (v) textLines.push(`  ${v}`);
    const d = diffOf(p);
    if (d) textLines.push(d, '');
  }
  const html = [
    `<h2>${esc(monitor.name)}</h2>`,
    `<p>Check <code>${esc(check.id)}</code>: <b>${esc(check.status)}</b>. ${esc(counts)}.</p>`,
    ...(check.error ? [`<p>Errors: ${esc(check.error)}</p>`] : []),
    '<ul>',
    ...listed.map((p) => {
      const d = diffOf(p);
      const v = verdict(p);
      return `<li><b>${esc(p.status)}</b> <a href="${esc(p.url)}">${esc(p.url)}</a>${p.error ? ` (${esc(p.error)})` : ''}${v ? `<br><i>${esc(v)}</i>` : ''}${d ? `<pre>${esc(d)}</pre>` : ''}</li>`;
    }),
    '</ul>',
  ].join('\n');
  return { subject, text: textLines.join('\n'), html };
}
