import * as dns from 'dns';
import * as http from 'http';
import type { AddressInfo } from 'net';
import axios, { AddressFamily, AxiosError, LookupAddress } from 'axios';
import {
	createGuardedAgents,
	createGuardedLookup,
	isBlockedAddress,
	parseAllowCidrs,
	UrlGuardConfig,
	validateUrlShape,
} from '../../../sidecar/src/outbound/url-guard';

describe( 'isBlockedAddress', () => {
	it.each( [
		// IPv4 special-purpose ranges
		[ '0.0.0.0', true, 'unspecified' ],
		[ '0.1.2.3', true, 'unspecified' ],
		[ '10.0.0.1', true, 'private' ],
		[ '10.255.255.255', true, 'private' ],
		[ '172.16.0.1', true, 'private' ],
		[ '172.31.255.254', true, 'private' ],
		[ '192.168.1.1', true, 'private' ],
		[ '127.0.0.1', true, 'loopback' ],
		[ '127.255.255.254', true, 'loopback' ],
		[ '169.254.169.254', true, 'linkLocal' ], // cloud metadata
		[ '100.64.0.1', true, 'carrierGradeNat' ],
		[ '198.18.0.1', true, 'reserved' ],
		[ '198.19.255.255', true, 'reserved' ],
		[ '192.0.2.1', true, 'reserved' ], // TEST-NET-1
		[ '240.0.0.1', true, 'reserved' ],
		[ '224.0.0.1', true, 'multicast' ],
		[ '239.255.255.250', true, 'multicast' ],
		[ '255.255.255.255', true, 'broadcast' ],
		// IPv4 public
		[ '93.184.216.34', false, 'unicast' ],
		[ '8.8.8.8', false, 'unicast' ],
		[ '172.32.0.1', false, 'unicast' ], // just outside 172.16/12
		[ '100.128.0.1', false, 'unicast' ], // just outside 100.64/10
		// IPv6
		[ '::1', true, 'loopback' ],
		[ '::', true, 'unspecified' ],
		[ 'fc00::1', true, 'uniqueLocal' ],
		[ 'fd12:3456::1', true, 'uniqueLocal' ],
		[ 'fe80::1', true, 'linkLocal' ],
		[ 'fe80::1%eth0', true, 'linkLocal' ],
		[ 'ff02::1', true, 'multicast' ],
		[ '2001:db8::1', true, 'reserved' ], // documentation
		[ '2002:7f00:1::', true, '6to4' ], // 6to4 wrapping 127.0.0.1
		[ '64:ff9b::a9fe:a9fe', true, 'rfc6052' ], // NAT64 wrapping 169.254.169.254
		[ '::102:304', true, 'notGlobalUnicast' ], // deprecated IPv4-compatible
		[ '2606:2800:220:1::', false, 'unicast' ],
		[ '2a00:1450:4001:81b::200e', false, 'unicast' ],
		// IPv4-mapped IPv6 is judged by the embedded IPv4 address
		[ '::ffff:127.0.0.1', true, 'loopback' ],
		[ '::ffff:7f00:1', true, 'loopback' ],
		[ '::ffff:169.254.169.254', true, 'linkLocal' ],
		[ '::ffff:10.0.0.1', true, 'private' ],
		[ '::ffff:93.184.216.34', false, 'unicast' ],
		[ '[::1]', true, 'loopback' ],
		// garbage is blocked, never allowed
		[ 'not-an-ip', true, 'invalid' ],
		[ '', true, 'invalid' ],
	] )( '%s → blocked=%s (%s)', ( ip, blocked, range ) => {
		expect( isBlockedAddress( ip, [] ) ).toEqual( { blocked, range } );
	} );

	it( 'exempts allow-listed CIDRs (127.0.0.0/8)', () => {
		const allow = [ '127.0.0.0/8' ];
		expect( isBlockedAddress( '127.0.0.1', allow ).blocked ).toBe( false );
		expect( isBlockedAddress( '127.8.9.10', allow ).blocked ).toBe( false );
		expect( isBlockedAddress( '::ffff:127.0.0.1', allow ).blocked ).toBe( false );
		// Only what is listed.
		expect( isBlockedAddress( '10.0.0.1', allow ).blocked ).toBe( true );
		expect( isBlockedAddress( '::1', allow ).blocked ).toBe( true );
		expect( isBlockedAddress( '169.254.169.254', allow ).blocked ).toBe( true );
	} );

	it( 'matches IPv6 allow-list entries', () => {
		expect( isBlockedAddress( 'fd00::5', [ 'fd00::/8' ] ).blocked ).toBe( false );
		expect( isBlockedAddress( 'fe80::1', [ 'fd00::/8' ] ).blocked ).toBe( true );
		expect( isBlockedAddress( '::1', [ '::1/128' ] ).blocked ).toBe( false );
	} );
} );

describe( 'parseAllowCidrs', () => {
	it( 'parses and normalises a comma-separated list', () => {
		expect( parseAllowCidrs( ' 127.0.0.0/8, 10.1.0.0/16 ,fd00::/8,,192.168.1.5 , ::1' ) ).toEqual( [
			'127.0.0.0/8',
			'10.1.0.0/16',
			'fd00::/8',
			'192.168.1.5/32',
			'::1/128',
		] );
	} );

	it( 'returns [] for an empty list', () => {
		expect( parseAllowCidrs( '' ) ).toEqual( [] );
		expect( parseAllowCidrs( ' , ' ) ).toEqual( [] );
	} );

	it.each( [ '10.0.0.0/33', 'fd00::/129', 'localhost', '10.0.0.0/8/1', '300.1.1.1', '10.0.0.0/' ] )(
		'throws naming the bad entry %p',
		( bad ) => {
			expect( () => parseAllowCidrs( `127.0.0.0/8, ${ bad }` ) ).toThrow( bad );
		}
	);
} );

describe( 'validateUrlShape', () => {
	const open: UrlGuardConfig = { allowCidrs: [] };

	it.each( [
		'https://example.com/hook',
		'http://example.com:8080/hook?x=1',
		'https://93.184.216.34/hook',
		'https://[2606:2800:220:1::]/hook',
		'HTTPS://Example.COM/',
	] )( 'accepts %s', ( raw ) => {
		const result = validateUrlShape( raw, open );
		expect( result.ok ).toBe( true );
		if ( result.ok ) {
			expect( result.url ).toBeInstanceOf( URL );
		}
	} );

	it.each( [
		[ 'not a url', 'invalid_url' ],
		[ '/relative/path', 'invalid_url' ],
		[ 'http://', 'invalid_url' ],
		[ 'https://exa mple.com/', 'invalid_url' ],
		[ 'ftp://example.com/', 'unsupported_scheme' ],
		[ 'file:///etc/passwd', 'unsupported_scheme' ],
		[ 'gopher://example.com/', 'unsupported_scheme' ],
		[ 'javascript:alert(1)', 'unsupported_scheme' ],
		[ 'https://user:pass@example.com/', 'credentials_in_url' ],
		[ 'https://user@example.com/', 'credentials_in_url' ],
		[ 'https://:pass@example.com/', 'credentials_in_url' ],
		[ 'http://127.0.0.1/', 'blocked_address' ],
		[ 'http://127.0.0.1:8080/', 'blocked_address' ],
		[ 'http://[::1]/', 'blocked_address' ],
		[ 'http://[::]/', 'blocked_address' ],
		[ 'http://[::ffff:127.0.0.1]/', 'blocked_address' ],
		[ 'http://[fe80::1]/', 'blocked_address' ],
		[ 'http://169.254.169.254/latest/meta-data/', 'blocked_address' ],
		[ 'http://10.0.0.1/', 'blocked_address' ],
		[ 'http://0.0.0.0/', 'blocked_address' ],
		[ 'http://0/', 'blocked_address' ], // WHATWG → 0.0.0.0
		[ 'http://2130706433/', 'blocked_address' ], // decimal 127.0.0.1
		[ 'http://0x7f000001/', 'blocked_address' ], // hex
		[ 'http://0x7f.1/', 'blocked_address' ],
		[ 'http://0177.0.0.1/', 'blocked_address' ], // octal
		[ 'http://127.1/', 'blocked_address' ], // short form
		[ 'http://127.0.0.1./', 'blocked_address' ], // trailing dot
		[ 'http://[::ffff:a9fe:a9fe]/', 'blocked_address' ], // mapped metadata
	] )( '%s → %s', ( raw, code ) => {
		const result = validateUrlShape( raw, open );
		expect( result ).toMatchObject( { ok: false, code } );
		if ( ! result.ok ) {
			expect( result.message ).not.toBe( '' );
		}
	} );

	it( 'names the setting that allows a private address, with its format, in the refusal', () => {
		const result = validateUrlShape( 'http://127.0.0.1:5678/webhook', open );
		expect( result ).toMatchObject( { ok: false, code: 'blocked_address' } );
		if ( ! result.ok ) {
			expect( result.message ).toContain(
				'SIDECAR_ALLOW_PRIVATE_CIDRS (comma-separated CIDRs, e.g. 127.0.0.1/32)'
			);
		}
	} );

	it( 'allows an allow-listed literal IP', () => {
		expect( validateUrlShape( 'http://127.0.0.1:3000/', { allowCidrs: [ '127.0.0.0/8' ] } ).ok ).toBe( true );
		expect( validateUrlShape( 'http://[::1]:3000/', { allowCidrs: [ '127.0.0.0/8' ] } ).ok ).toBe( false );
	} );

	it( 'leaves hostnames to the connect-time check', () => {
		expect( validateUrlShape( 'http://localhost/', open ).ok ).toBe( true );
	} );

	describe( 'allowedPorts', () => {
		const cfg: UrlGuardConfig = { allowCidrs: [], allowedPorts: [ 80, 443, 8443 ] };
		it.each( [
			[ 'https://example.com/', true ],
			[ 'http://example.com/', true ],
			[ 'https://example.com:8443/', true ],
			[ 'http://example.com:443/', true ],
			[ 'https://example.com:80/', true ],
			[ 'http://example.com:22/', false ],
			[ 'https://example.com:6379/', false ],
		] )( '%s → ok=%s', ( raw, ok ) => {
			const result = validateUrlShape( raw, cfg );
			expect( result.ok ).toBe( ok );
			if ( ! ok ) {
				expect( result ).toMatchObject( { code: 'port_not_allowed' } );
			}
		} );

		it( 'any port when undefined', () => {
			expect( validateUrlShape( 'http://example.com:22/', { allowCidrs: [] } ).ok ).toBe( true );
		} );
	} );
} );

type LookupCb = ( err: NodeJS.ErrnoException | null, address?: string | dns.LookupAddress[], family?: number ) => void;

/** A fake resolver returning fixed answers, to simulate DNS rebinding. */
function fakeResolver( answers: dns.LookupAddress[] ): typeof dns.lookup {
	const fake = ( _host: string, _opts: dns.LookupOptions, cb: LookupCb ): void => {
		process.nextTick( () => cb( null, answers ) );
	};
	return fake as unknown as typeof dns.lookup;
}

function lookupOnce(
	lookup: typeof dns.lookup,
	host: string,
	options: dns.LookupOptions | number | undefined
): Promise< {
	address?: string | dns.LookupAddress[];
	family?: number;
} > {
	return new Promise( ( resolve, reject ) => {
		const cb: LookupCb = ( err, address, family ) => ( err ? reject( err ) : resolve( { address, family } ) );
		const call = lookup as unknown as ( h: string, o: unknown, c?: LookupCb ) => void;
		if ( options === undefined ) {
			call( host, cb );
		} else {
			call( host, options, cb );
		}
	} );
}

describe( 'createGuardedLookup', () => {
	const publicV4 = { address: '93.184.216.34', family: 4 };
	const publicV6 = { address: '2606:2800:220:1::', family: 6 };

	it( 'passes through public answers in every calling convention', async () => {
		const lookup = createGuardedLookup( { allowCidrs: [] }, fakeResolver( [ publicV4, publicV6 ] ) );
		await expect( lookupOnce( lookup, 'example.com', undefined ) ).resolves.toEqual( {
			address: '93.184.216.34',
			family: 4,
		} );
		await expect( lookupOnce( lookup, 'example.com', 4 ) ).resolves.toEqual( {
			address: '93.184.216.34',
			family: 4,
		} );
		await expect( lookupOnce( lookup, 'example.com', {} ) ).resolves.toEqual( {
			address: '93.184.216.34',
			family: 4,
		} );
		await expect( lookupOnce( lookup, 'example.com', { all: true } ) ).resolves.toEqual( {
			address: [ publicV4, publicV6 ],
			family: undefined,
		} );
	} );

	it.each( [
		[ [ { address: '127.0.0.1', family: 4 } ] ],
		[ [ publicV4, { address: '10.0.0.1', family: 4 } ] ], // rebinding: one bad answer spoils all
		[ [ publicV6, { address: '::1', family: 6 } ] ],
		[ [ { address: '::ffff:169.254.169.254', family: 6 } ] ],
	] )( 'rejects with EBLOCKED if any answer is blocked: %j', async ( answers ) => {
		const lookup = createGuardedLookup( { allowCidrs: [] }, fakeResolver( answers ) );
		await expect( lookupOnce( lookup, 'rebind.example', { all: true } ) ).rejects.toMatchObject( {
			code: 'EBLOCKED',
			hostname: 'rebind.example',
		} );
		await expect( lookupOnce( lookup, 'rebind.example', undefined ) ).rejects.toMatchObject( { code: 'EBLOCKED' } );
	} );

	it( 'honours the allow-list', async () => {
		const lookup = createGuardedLookup(
			{ allowCidrs: [ '10.0.0.0/8' ] },
			fakeResolver( [ { address: '10.0.0.1', family: 4 } ] )
		);
		await expect( lookupOnce( lookup, 'internal.example', {} ) ).resolves.toEqual( {
			address: '10.0.0.1',
			family: 4,
		} );
	} );

	it( 'propagates resolver errors and treats an empty answer as ENOTFOUND', async () => {
		const failing = ( ( _h: string, _o: dns.LookupOptions, cb: LookupCb ) =>
			cb( Object.assign( new Error( 'nope' ), { code: 'ENOTFOUND' } ) ) ) as unknown as typeof dns.lookup;
		await expect(
			lookupOnce( createGuardedLookup( { allowCidrs: [] }, failing ), 'x.invalid', {} )
		).rejects.toMatchObject( {
			code: 'ENOTFOUND',
		} );
		const empty = createGuardedLookup( { allowCidrs: [] }, fakeResolver( [] ) );
		await expect( lookupOnce( empty, 'x.invalid', {} ) ).rejects.toMatchObject( { code: 'ENOTFOUND' } );
	} );

	it( 'refuses localhost via the real resolver', async () => {
		const lookup = createGuardedLookup( { allowCidrs: [] } );
		await expect( lookupOnce( lookup, 'localhost', { all: true } ) ).rejects.toMatchObject( { code: 'EBLOCKED' } );
	} );
} );

describe( 'createGuardedAgents (connect time, real server on 127.0.0.1)', () => {
	let server: http.Server;
	let port: number;
	let hits = 0;
	const agentsToClose: { httpAgent: http.Agent; httpsAgent: http.Agent }[] = [];

	beforeAll( async () => {
		server = http.createServer( ( req, res ) => {
			hits++;
			if ( req.url === '/redirect' ) {
				res.writeHead( 302, { location: 'http://169.254.169.254/' } ).end();
				return;
			}
			res.writeHead( 200, { 'content-type': 'application/json' } ).end( '{"ok":true}' );
		} );
		await new Promise< void >( ( resolve ) => server.listen( 0, '127.0.0.1', resolve ) );
		port = ( server.address() as AddressInfo ).port;
	} );

	afterAll( async () => {
		for ( const { httpAgent, httpsAgent } of agentsToClose ) {
			httpAgent.destroy();
			httpsAgent.destroy();
		}
		server.closeAllConnections();
		await new Promise< void >( ( resolve ) => server.close( () => resolve() ) );
	} );

	beforeEach( () => {
		hits = 0;
	} );

	function client( config: UrlGuardConfig ) {
		const agents = createGuardedAgents( config );
		agentsToClose.push( agents );
		return axios.create( {
			httpAgent: agents.httpAgent,
			httpsAgent: agents.httpsAgent,
			proxy: false,
			maxRedirects: 0,
			timeout: 5000,
			validateStatus: () => true,
		} );
	}

	async function errorCode( promise: Promise< unknown > ): Promise< string | undefined > {
		try {
			await promise;
		} catch ( err ) {
			expect( err ).toBeInstanceOf( AxiosError );
			return ( err as AxiosError ).code;
		}
		throw new Error( 'request unexpectedly succeeded' );
	}

	it( 'uses keep-alive agents', () => {
		const { httpAgent, httpsAgent } = client( { allowCidrs: [] } ).defaults as {
			httpAgent: http.Agent & { keepAlive?: boolean };
			httpsAgent: http.Agent & { keepAlive?: boolean };
		};
		expect( httpAgent.keepAlive ).toBe( true );
		expect( httpsAgent.keepAlive ).toBe( true );
	} );

	it( 'refuses a literal 127.0.0.1 with EBLOCKED', async () => {
		await expect( errorCode( client( { allowCidrs: [] } ).get( `http://127.0.0.1:${ port }/` ) ) ).resolves.toBe(
			'EBLOCKED'
		);
		expect( hits ).toBe( 0 );
	} );

	it( 'refuses literal IPs over https before any TLS handshake', async () => {
		await expect( errorCode( client( { allowCidrs: [] } ).get( `https://127.0.0.1:${ port }/` ) ) ).resolves.toBe(
			'EBLOCKED'
		);
		await expect( errorCode( client( { allowCidrs: [] } ).get( `https://[::1]:${ port }/` ) ) ).resolves.toBe(
			'EBLOCKED'
		);
		expect( hits ).toBe( 0 );
	} );

	it( 'refuses IPv6 and mapped literal loopback', async () => {
		const http0 = client( { allowCidrs: [ '127.0.0.1/32' ] } );
		await expect( errorCode( http0.get( `http://[::1]:${ port }/` ) ) ).resolves.toBe( 'EBLOCKED' );
		const http1 = client( { allowCidrs: [] } );
		await expect( errorCode( http1.get( `http://[::ffff:127.0.0.1]:${ port }/` ) ) ).resolves.toBe( 'EBLOCKED' );
		expect( hits ).toBe( 0 );
	} );

	it( 'refuses a hostname (localhost) at lookup time', async () => {
		await expect( errorCode( client( { allowCidrs: [] } ).get( `http://localhost:${ port }/` ) ) ).resolves.toBe(
			'EBLOCKED'
		);
		expect( hits ).toBe( 0 );
	} );

	it( 'ignores a caller-supplied lookup that tries to bypass the guard', async () => {
		const sneaky = (
			_h: string,
			_o: object,
			cb: ( e: Error | null, a: LookupAddress, f?: AddressFamily ) => void
		): void => cb( null, '127.0.0.1', 4 );
		const code = await errorCode(
			client( { allowCidrs: [] } ).get( `http://sneaky.invalid:${ port }/`, { lookup: sneaky } )
		);
		expect( code ).not.toBeUndefined();
		expect( hits ).toBe( 0 );
	} );

	it( 'refuses unix sockets', async () => {
		await expect(
			errorCode(
				client( { allowCidrs: [] } ).get( 'http://example.com/', { socketPath: '/var/run/docker.sock' } )
			)
		).resolves.toBe( 'EBLOCKED' );
	} );

	it( 'connects when 127.0.0.1/32 is allow-listed, and reuses the agent', async () => {
		const http0 = client( { allowCidrs: [ '127.0.0.1/32' ] } );
		const first = await http0.get( `http://127.0.0.1:${ port }/` );
		expect( first.status ).toBe( 200 );
		expect( first.data ).toEqual( { ok: true } );
		const second = await http0.get( `http://127.0.0.1:${ port }/` );
		expect( second.status ).toBe( 200 );
		expect( hits ).toBe( 2 );
	} );

	it( 'does not follow redirects (3xx is returned as-is)', async () => {
		const res = await client( { allowCidrs: [ '127.0.0.1/32' ] } ).get( `http://127.0.0.1:${ port }/redirect` );
		expect( res.status ).toBe( 302 );
		expect( hits ).toBe( 1 );
	} );
} );
