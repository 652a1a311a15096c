import pino from 'pino';

/**
 * Structured JSON logs (one object a line). Anything that could carry a secret is
 * redacted by path, so a careless `log.info({ endpoint })` cannot leak one.
 */
export type Logger = pino.Logger;

/** `destination` defaults to stdout; tests pass a stream to read the log back. */
export function createLogger( level: string, destination?: pino.DestinationStream ): Logger {
	const options: pino.LoggerOptions = {
		name: 'sidecar',
		level,
		base: { pid: process.pid },
		timestamp: pino.stdTimeFunctions.isoTime,
		redact: {
			paths: [
				'secret',
				'secrets',
				'*.secret',
				'*.secrets',
				'sharedKey',
				'*.sharedKey',
				'headers.authorization',
				'headers["x-si-signature"]',
				'*.headers.authorization',
				// mysql2 puts the statement on a database error with its values written in, secrets included.
				'err.sql',
			],
			censor: '[redacted]',
		},
	};
	return destination ? pino( options, destination ) : pino( options );
}
