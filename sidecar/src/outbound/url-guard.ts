/**
 * SSRF protection for outbound webhook URLs.
 *
 * Two layers, because a hostname that was public when the endpoint was saved can
 * resolve to 127.0.0.1 later (DNS rebinding):
 *  - validateUrlShape: at save time, scheme/credentials/port and literal-IP hosts;
 *  - createGuardedAgents: at connect time, every resolved address (guarded lookup)
 *    and literal-IP hosts, which Node connects to without calling `lookup`.
 * Only globally routable unicast is allowed unless an operator allow-lists a CIDR.
 */
import { GUARD_REFUSAL_CODE } from '../model/recovery';
import * as dns from 'dns';
import * as http from 'http';
import * as https from 'https';
import * as net from 'net';
import type { Duplex } from 'stream';
import ipaddr from 'ipaddr.js';

export interface UrlGuardConfig {
	allowCidrs: string[];
	/** undefined = any port. */
	allowedPorts?: number[];
}

export type UrlShapeError =
	'invalid_url' | 'unsupported_scheme' | 'credentials_in_url' | 'blocked_address' | 'port_not_allowed';

export type UrlShapeResult = { ok: true; url: URL } | { ok: false; code: UrlShapeError; message: string };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Parses `10.0.0.0/8, 127.0.0.1` (bare IPs become /32 or /128) into normalised CIDRs. */
export function parseAllowCidrs( list: string ): string[] {
	return list
		.split( ',' )
		.map( ( entry ) => entry.trim() )
		.filter( ( entry ) => entry !== '' )
		.map( ( entry ) => {
			if ( ipaddr.isValidCIDR( entry ) ) {
				const [ addr, bits ] = ipaddr.parseCIDR( entry );
				return `${ addr.toString() }/${ bits }`;
			}
			if ( ipaddr.isValid( entry ) && net.isIP( entry ) !== 0 ) {
				const addr = ipaddr.parse( entry );
				return `${ addr.toString() }/${ addr.kind() === 'ipv4' ? 32 : 128 }`;
			}
			throw new Error( `Invalid CIDR in allow-list: "${ entry }"` );
		} );
}

function isAllowListed( candidates: Address[], allowCidrs: string[] ): boolean {
	return allowCidrs.some( ( cidr ) => {
		const range = ipaddr.parseCIDR( cidr );
		return candidates.some( ( addr ) => addr.kind() === range[ 0 ].kind() && addr.match( range ) );
	} );
}

/** ipaddr.js names every special-purpose block; plain 'unicast' is what's left. */
function blockedRange( addr: Address ): string | undefined {
	const range = addr.range();
	if ( range !== 'unicast' ) {
		return range;
	}
	// IPv6 'unicast' is merely "not special"; only 2000::/3 is global unicast.
	if ( addr.kind() === 'ipv6' && ( ( addr as ipaddr.IPv6 ).parts[ 0 ]! & 0xe000 ) !== 0x2000 ) {
		return 'notGlobalUnicast';
	}
	return undefined;
}

export function isBlockedAddress( ip: string, allowCidrs: string[] ): { blocked: boolean; range?: string } {
	let parsed: Address;
	try {
		parsed = ipaddr.parse( ip.startsWith( '[' ) && ip.endsWith( ']' ) ? ip.slice( 1, -1 ) : ip );
	} catch {
		return { blocked: true, range: 'invalid' };
	}
	// ::ffff:127.0.0.1 reaches 127.0.0.1, so judge the embedded IPv4 address.
	const effective: Address =
		parsed.kind() === 'ipv6' && ( parsed as ipaddr.IPv6 ).isIPv4MappedAddress()
			? ( parsed as ipaddr.IPv6 ).toIPv4Address()
			: parsed;
	const blockedAs = blockedRange( effective );
	const range = blockedAs ?? effective.range();
	const blocked = blockedAs !== undefined && ! isAllowListed( [ effective, parsed ], allowCidrs );
	return { blocked, range };
}

function literalIp( hostname: string ): string | undefined {
	const bare = hostname.startsWith( '[' ) && hostname.endsWith( ']' ) ? hostname.slice( 1, -1 ) : hostname;
	return net.isIP( bare ) !== 0 ? bare : undefined;
}

/** The setting that opens private ranges to receivers (config.ts reads it under this name). */
export const ALLOW_PRIVATE_CIDRS_SETTING = 'SIDECAR_ALLOW_PRIVATE_CIDRS';

/** What a refused private address tells the operator to do. */
function allowHint( ip: string ): string {
	const example = ip.includes( ':' ) ? `${ ip }/128` : `${ ip }/32`;
	return `To deliver to a receiver on your own network, set ${ ALLOW_PRIVATE_CIDRS_SETTING } (comma-separated CIDRs, e.g. ${ example }) for the sidecar and restart it`;
}

export function validateUrlShape( rawUrl: string, config: UrlGuardConfig ): UrlShapeResult {
	let url: URL;
	try {
		url = new URL( rawUrl );
	} catch {
		return { ok: false, code: 'invalid_url', message: 'Not a valid absolute URL' };
	}
	if ( url.protocol !== 'http:' && url.protocol !== 'https:' ) {
		return {
			ok: false,
			code: 'unsupported_scheme',
			message: `Scheme ${ url.protocol } is not allowed; use http or https`,
		};
	}
	if ( url.username !== '' || url.password !== '' ) {
		return { ok: false, code: 'credentials_in_url', message: 'Credentials in the URL are not allowed' };
	}
	if ( url.hostname === '' ) {
		return { ok: false, code: 'invalid_url', message: 'URL has no host' };
	}
	const port = url.port === '' ? ( url.protocol === 'https:' ? 443 : 80 ) : Number( url.port );
	if ( config.allowedPorts !== undefined && ! config.allowedPorts.includes( port ) ) {
		return { ok: false, code: 'port_not_allowed', message: `Port ${ port } is not allowed` };
	}
	// WHATWG URL already normalised 0x7f.1, 2130706433, 0177.0.0.1 etc. to dotted decimal.
	const ip = literalIp( url.hostname );
	if ( ip !== undefined ) {
		const verdict = isBlockedAddress( ip, config.allowCidrs );
		if ( verdict.blocked ) {
			return {
				ok: false,
				code: 'blocked_address',
				message: `Address ${ ip } is in a blocked range (${ verdict.range }). ${ allowHint( ip ) }`,
			};
		}
	}
	return { ok: true, url };
}

function blockedError( message: string, address: string, hostname?: string ): NodeJS.ErrnoException {
	return Object.assign( new Error( message ), { code: GUARD_REFUSAL_CODE, address, hostname } );
}

type LookupCallback = (
	err: NodeJS.ErrnoException | null,
	address?: string | dns.LookupAddress[],
	family?: number
) => void;

/**
 * dns.lookup replacement that resolves every address and refuses if ANY is blocked
 * (a partial answer could still be rebound to the blocked one on retry).
 * `baseLookup` is injectable so tests can simulate rebinding answers.
 */
export function createGuardedLookup(
	config: UrlGuardConfig,
	baseLookup: typeof dns.lookup = dns.lookup
): typeof dns.lookup {
	const guarded = (
		hostname: string,
		options: number | dns.LookupOptions | LookupCallback,
		maybeCallback?: LookupCallback
	): void => {
		const callback = typeof options === 'function' ? options : maybeCallback;
		if ( callback === undefined ) {
			throw new TypeError( 'lookup requires a callback' );
		}
		const opts: dns.LookupOptions =
			typeof options === 'function' ? {} : typeof options === 'number' ? { family: options } : options;
		baseLookup( hostname, { ...opts, all: true }, ( err, addresses ) => {
			if ( err ) {
				callback( err );
				return;
			}
			if ( addresses.length === 0 ) {
				callback(
					Object.assign( new Error( `No addresses for ${ hostname }` ), { code: 'ENOTFOUND', hostname } )
				);
				return;
			}
			for ( const { address } of addresses ) {
				const verdict = isBlockedAddress( address, config.allowCidrs );
				if ( verdict.blocked ) {
					callback(
						blockedError(
							`Refusing to connect to ${ hostname }: ${ address } is in a blocked range (${ verdict.range }). ${ allowHint( address ) }`,
							address,
							hostname
						)
					);
					return;
				}
			}
			if ( opts.all === true ) {
				callback( null, addresses );
			} else {
				const first = addresses[ 0 ]!;
				callback( null, first.address, first.family );
			}
		} );
	};
	// dns.lookup's overloads (and __promisify__) can't be expressed by one implementation.
	return guarded as unknown as typeof dns.lookup;
}

type ConnectOptions = http.ClientRequestArgs;
type ConnectCallback = ( err: Error | null, stream: Duplex ) => void;

/** Literal-IP hosts and unix sockets bypass `lookup`, so check them here. */
function refusal( options: ConnectOptions, config: UrlGuardConfig ): NodeJS.ErrnoException | undefined {
	if ( options.socketPath !== undefined ) {
		return blockedError( 'Refusing to connect to a unix socket', options.socketPath );
	}
	const ip = literalIp( options.host ?? options.hostname ?? '' );
	if ( ip === undefined ) {
		return undefined;
	}
	const verdict = isBlockedAddress( ip, config.allowCidrs );
	return verdict.blocked
		? blockedError( `Refusing to connect to ${ ip }: blocked range (${ verdict.range }). ${ allowHint( ip ) }`, ip )
		: undefined;
}

function guardedConnect(
	options: ConnectOptions,
	callback: ConnectCallback | undefined,
	config: UrlGuardConfig,
	lookup: typeof dns.lookup,
	connect: ( options: ConnectOptions, callback?: ConnectCallback ) => Duplex | null | undefined
): Duplex | null | undefined {
	const err = refusal( options, config );
	if ( err === undefined ) {
		// Force our lookup even if a caller passed its own in the request options.
		return connect( { ...options, lookup }, callback );
	}
	if ( callback === undefined ) {
		throw err;
	}
	// The Agent contract accepts (err) via the callback; the request then emits 'error'.
	const fail = callback as ( err: Error ) => void;
	process.nextTick( () => fail( err ) );
	return undefined;
}

export function createGuardedAgents( config: UrlGuardConfig ): { httpAgent: http.Agent; httpsAgent: https.Agent } {
	const lookup = createGuardedLookup( config );

	class GuardedHttpAgent extends http.Agent {
		override createConnection( options: ConnectOptions, callback?: ConnectCallback ): Duplex | null | undefined {
			return guardedConnect( options, callback, config, lookup, ( o, cb ) => super.createConnection( o, cb ) );
		}
	}
	class GuardedHttpsAgent extends https.Agent {
		override createConnection(
			options: https.RequestOptions,
			callback?: ConnectCallback
		): Duplex | null | undefined {
			return guardedConnect( options, callback, config, lookup, ( o, cb ) => super.createConnection( o, cb ) );
		}
	}

	return {
		httpAgent: new GuardedHttpAgent( { keepAlive: true, lookup } ),
		httpsAgent: new GuardedHttpsAgent( { keepAlive: true, lookup } ),
	};
}
