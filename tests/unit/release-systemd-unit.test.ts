import { spawnSync } from 'child_process';
import fs from 'fs';
import os from 'os';
import path from 'path';

/**
 * The unit shipped in the sidecar's package, checked by systemd itself: `systemd-analyze
 * verify` (Debian's systemd package; .ci/run installs it) parses it as systemd would and
 * fails on a missing ExecStart binary. An unknown or misspelt key is only a warning on
 * stderr with exit code 0, so any output fails the test too. The installed command is
 * checked the same way in tests/release (its `systemd-unit` output, ExecStart on the real bin).
 */
const UNIT_NAME = 'service-integration-sidecar.service';
const UNIT = path.resolve( __dirname, '..', '..', 'sidecar', 'packaging', UNIT_NAME );
const SHIPPED_EXEC = '/usr/bin/service-integration-sidecar';

function verify( unitText: string ): { status: number | null; output: string } {
	const dir = fs.mkdtempSync( path.join( os.tmpdir(), 'si-unit-' ) );
	try {
		// verify needs ExecStart's binary to exist and be executable: a stand-in at a known path.
		const exec = path.join( dir, 'service-integration-sidecar' );
		fs.writeFileSync( exec, '#!/bin/sh\nexit 0\n', { mode: 0o755 } );
		fs.writeFileSync(
			path.join( dir, UNIT_NAME ),
			unitText.split( `ExecStart=${ SHIPPED_EXEC } ` ).join( `ExecStart=${ exec } ` )
		);
		const result = spawnSync( 'systemd-analyze', [ 'verify', path.join( dir, UNIT_NAME ) ], { encoding: 'utf8' } );
		if ( result.error ) {
			throw new Error( `systemd-analyze cannot run (${ result.error.message }): apt-get install systemd` );
		}
		return { status: result.status, output: `${ result.stdout }${ result.stderr }`.trim() };
	} finally {
		fs.rmSync( dir, { recursive: true, force: true } );
	}
}

describe( "the sidecar's systemd unit", () => {
	const text = fs.readFileSync( UNIT, 'utf8' );

	it( 'passes systemd-analyze verify without a warning', () => {
		expect( text ).toContain(
			`ExecStart=${ SHIPPED_EXEC } start --config /etc/service-integration-sidecar/config.json\n`
		);
		expect( verify( text ) ).toEqual( { status: 0, output: '' } );
	} );

	it( 'the check catches a misspelt key and a missing binary', () => {
		expect( verify( text.replace( 'ProtectSystem=strict', 'ProtectSystm=strict' ) ).output ).toMatch(
			/Unknown key 'ProtectSystm'/
		);
		expect(
			verify(
				text.replace( `ExecStart=${ SHIPPED_EXEC } `, 'ExecStart=/nonexistent/service-integration-sidecar ' )
			).status
		).not.toBe( 0 );
	} );

	it( 'is hardened: its own user, read-only system, state folder, no privileges, restarts on failure', () => {
		for ( const line of [
			'DynamicUser=yes',
			'ProtectSystem=strict',
			'ProtectHome=yes',
			'PrivateTmp=yes',
			'NoNewPrivileges=yes',
			'StateDirectory=service-integration-sidecar',
			'ConfigurationDirectory=service-integration-sidecar',
			'LoadCredential=shared-key:/etc/service-integration-sidecar/shared-key',
			'Environment=SIDECAR_SHARED_KEY_FILE=%d/shared-key',
			'CapabilityBoundingSet=',
			'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6',
			'Restart=on-failure',
			'WantedBy=multi-user.target',
		] ) {
			expect( text.split( '\n' ) ).toContain( line );
		}
	} );
} );
