/** A real SMTP server on loopback for tests: accepts every message and keeps it, parsed. */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  parsed: ParsedMail;
}

export interface SmtpReceiver {
  url: string;
  mails: ReceivedMail[];
  waitFor(pred: (mails: ReceivedMail[]) => boolean, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            parsed,
          });
          callback();
        })
        .catch((e: Error) => callback(e));
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(pred, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      while (!pred(mails)) {
        if (Date.now() > until) throw new Error(`timed out waiting for mail; have ${mails.length}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return mails;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
