import { spawn } from 'child_process';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { TEST_KEY } from './support/harness';
import { sidecarNodeArgs } from '../../scripts/lib/sidecar-command';

const ROOT = path.resolve( __dirname, '..', '..' );

/** A sidecar whose port another process holds: it says so and exits, and never claims to listen. */
describe( 'a sidecar started on a port in use', () => {
	let dir: string;
	let holder: net.Server;

	beforeEach( async () => {
		dir = fs.mkdtempSync( path.join( os.tmpdir(), 'sidecar-listen-' ) );
		holder = net.createServer();
		await new Promise< void >( ( resolve ) => holder.listen( 0, '127.0.0.1', resolve ) );
	} );

	afterEach( async () => {
		await new Promise< void >( ( resolve ) => holder.close( () => resolve() ) );
		fs.rmSync( dir, { recursive: true, force: true } );
	} );

	it( 'exits with code 1, naming the port, without logging "sidecar listening" first', async () => {
		const { port } = holder.address() as net.AddressInfo;
		const logFile = path.join( dir, 'sidecar.log' );
		const out = fs.openSync( logFile, 'a' );
		const child = spawn( process.execPath, sidecarNodeArgs(), {
			cwd: ROOT,
			stdio: [ 'ignore', out, out ],
			env: {
				...process.env,
				TS_NODE_PROJECT: path.join( ROOT, 'tsconfig.json' ),
				SIDECAR_HOST: '127.0.0.1',
				SIDECAR_PORT: String( port ),
				SIDECAR_DATA_DIR: path.join( dir, 'data' ),
				SIDECAR_SHARED_KEY: TEST_KEY,
				SIDECAR_LOG_LEVEL: 'info',
			},
		} );
		fs.closeSync( out );
		const code = await new Promise< number | null >( ( resolve ) => child.once( 'exit', resolve ) );
		const log = fs.readFileSync( logFile, 'utf8' );
		expect( code ).toBe( 1 );
		expect( log ).toContain( `cannot listen: 127.0.0.1:${ port } is in use by another process` );
		expect( log ).toContain( 'EADDRINUSE' );
		expect( log ).not.toContain( 'sidecar listening' );
	} );
} );
