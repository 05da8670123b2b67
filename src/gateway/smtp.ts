// The e-mail gateway's receiving side: an SMTP server (the `smtp-server` library) on
// PARLANCE_EMAIL_GATEWAY_LISTEN. Like a route it only decodes its input — the envelope, then the mail, parsed
// by `mailparser`, HTML turned to text by `html-to-text` — and hands it to the actions
// (src/actions/email-gateway.ts). Unknown addresses are refused at RCPT; a mail larger than
// PARLANCE_EMAIL_GATEWAY_MAX_MIB is refused as it arrives (announced by SIZE, counted while it streams in).
import type { Readable } from 'node:stream';
import { convert } from 'html-to-text';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { doPostEmail, findGatewayTarget, type GatewayTarget } from '../actions/email-gateway.js';

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

// Accepted recipients of the mail being received, by session.
const targets = new WeakMap<SMTPServerSession, GatewayTarget[]>();

function readBounded(stream: Readable & { sizeExceeded?: boolean }, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
    });
    stream.on('end', () => resolve(size > maxBytes || stream.sizeExceeded ? null : Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

const addressText = (a: AddressObject | AddressObject[] | undefined) => (Array.isArray(a) ? a.map((x) => x.text).join(', ') : (a?.text ?? ''));

export async function startEmailGateway(app: App, listen: string): Promise<{ address: string; close(): Promise<void> }> {
  const m = /^(.*):(\d+)$/.exec(listen);
  if (!m) throw new Error(`PARLANCE_EMAIL_GATEWAY_LISTEN must be host:port, got ${JSON.stringify(listen)}`);
  const maxBytes = app.config.emailGatewayMaxMib * 1024 * 1024;
  const server = new SMTPServer({
    name: app.config.emailGatewayDomain,
    banner: 'Parlance e-mail gateway',
    size: maxBytes,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    // A session still open at shutdown is cut after the same grace as HTTP requests.
    closeTimeout: app.config.shutdownGraceSeconds * 1000,
    onRcptTo(address, session, callback) {
      findGatewayTarget(app, address.address).then((target) => {
        if (!target) return callback(smtpError(`No such channel address: ${address.address}`, 550));
        targets.set(session, [...(targets.get(session) ?? []), target]);
        callback();
      }, (err: Error) => {
        app.log.error({ err }, 'e-mail gateway: recipient lookup failed');
        callback(smtpError('Temporary failure, try again later', 451));
      });
    },
    onData(stream, session, callback) {
      const to = targets.get(session) ?? [];
      targets.delete(session);
      receive(app, stream, to, maxBytes).then(() => callback(), (err: Error & { responseCode?: number }) => callback(err));
    },
  });
  server.on('error', (err) => app.log.warn({ err }, 'e-mail gateway: connection error'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(Number(m[2]), m[1].replace(/^\[|\]$/g, ''), () => resolve());
  });
  const bound = server.server.address();
  const address = typeof bound === 'object' && bound ? `${m[1]}:${bound.port}` : listen;
  return { address, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

// A text/plain part anywhere, or no Content-Type at all (which means text/plain).
function hasTextPart(raw: Buffer): boolean {
  const text = raw.toString('latin1');
  const headerEnd = text.search(/\r?\n\r?\n/);
  const headers = headerEnd < 0 ? text : text.slice(0, headerEnd);
  return !/^content-type:/im.test(headers) || /^content-type:\s*text\/plain/im.test(text);
}

async function receive(app: App, stream: Readable, to: GatewayTarget[], maxBytes: number): Promise<void> {
  const raw = await readBounded(stream, maxBytes);
  if (!raw) throw smtpError(`Message too large (limit: ${maxBytes} bytes)`, 552);
  const parsed = await simpleParser(raw);
  const mail = {
    from: addressText(parsed.from),
    subject: parsed.subject ?? '',
    // mailparser makes a text from the HTML when there is no text part; the HTML is converted here instead.
    text: hasTextPart(raw) ? (parsed.text ?? null) : null,
    htmlAsText: typeof parsed.html === 'string' ? convert(parsed.html, { wordwrap: false }) : null,
    attachments: parsed.attachments
      .filter((a) => a.contentDisposition !== 'inline' || a.filename)
      .map((a) => ({ filename: a.filename ?? 'attachment', contentType: a.contentType, content: a.content })),
  };
  // The same channel named twice gets the mail once.
  const seen = new Set<number>();
  for (const target of to) {
    if (seen.has(target.stream.id)) continue;
    seen.add(target.stream.id);
    try {
      await doPostEmail(app, target, mail);
    } catch (err) {
      if (err instanceof ApiError) throw smtpError(err.message, 550);
      app.log.error({ err }, 'e-mail gateway: posting failed');
      throw smtpError('Temporary failure, try again later', 451);
    }
  }
}
