import {
	AttemptOutcome,
	decide,
	DEFAULT_RETRY_POLICY,
	parseRetryAfter,
	RetryPolicyConfig,
} from '../../../sidecar/src/outbound/retry-policy';

const noJitter = (): number => 0.5; // 2*0.5-1 = 0 → exact schedule
const status = ( s: number, retryAfterHeader?: string ): AttemptOutcome =>
	retryAfterHeader === undefined
		? { kind: 'response', status: s }
		: { kind: 'response', status: s, retryAfterHeader };
const netErr = ( code: string ): AttemptOutcome => ( { kind: 'network-error', code } );
const NOW = Date.UTC( 2025, 0, 1, 12, 0, 0 );

describe( 'DEFAULT_RETRY_POLICY', () => {
	it( "is Standard Webhooks' schedule and one more day: 11 attempts, first immediate", () => {
		expect( DEFAULT_RETRY_POLICY ).toEqual( {
			scheduleSeconds: [ 0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400, 86400 ],
			jitterRatio: 0.2,
			overloadPenaltySeconds: 60,
		} );
	} );

	it( 'cannot be mutated by accident', () => {
		expect( Object.isFrozen( DEFAULT_RETRY_POLICY ) ).toBe( true );
		expect( Object.isFrozen( DEFAULT_RETRY_POLICY.scheduleSeconds ) ).toBe( true );
	} );
} );

describe( 'decide', () => {
	const cfg = DEFAULT_RETRY_POLICY;

	it.each( [ 200, 201, 202, 204, 299 ] )( '%i → succeeded on any attempt', ( s ) => {
		expect( decide( status( s ), 1, cfg, noJitter ) ).toEqual( { action: 'succeeded' } );
		expect( decide( status( s ), 8, cfg, noJitter ) ).toEqual( { action: 'succeeded' } );
	} );

	it( '410 → disable-endpoint, even on the last attempt', () => {
		expect( decide( status( 410 ), 1, cfg, noJitter ) ).toMatchObject( { action: 'disable-endpoint' } );
		expect( decide( status( 410 ), cfg.scheduleSeconds.length, cfg, noJitter ) ).toMatchObject( {
			action: 'disable-endpoint',
		} );
	} );

	it( 'EBLOCKED → give-up immediately (permanent)', () => {
		const d = decide( netErr( 'EBLOCKED' ), 1, cfg, noJitter );
		expect( d ).toMatchObject( { action: 'give-up' } );
		expect( d.action === 'give-up' && d.reason ).toMatch( /blocked/ );
	} );

	it.each( [ 301, 302, 307, 308 ] )( '%i (redirect not followed) → retry on schedule', ( s ) => {
		const d = decide( status( s ), 1, cfg, noJitter );
		expect( d ).toEqual( {
			action: 'retry',
			delaySeconds: 5,
			reason: expect.stringMatching( /redirects are not followed/ ),
		} );
	} );

	it.each( [
		[ status( 400 ), 5 ],
		[ status( 401 ), 5 ],
		[ status( 404 ), 5 ],
		[ status( 500 ), 5 ],
		[ status( 501 ), 5 ],
		[ status( 100 ), 5 ],
		[ netErr( 'ECONNREFUSED' ), 5 ],
		[ netErr( 'ECONNRESET' ), 5 ],
		[ netErr( 'ENOTFOUND' ), 5 ],
	] )( '%j after attempt 1 → retry in 5s', ( outcome, delay ) => {
		expect( decide( outcome, 1, cfg, noJitter ) ).toMatchObject( { action: 'retry', delaySeconds: delay } );
	} );

	it( 'follows the schedule: delay after attempt n is scheduleSeconds[n]', () => {
		const delays = [ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ].map( ( n ) => {
			const d = decide( status( 500 ), n, cfg, noJitter );
			return d.action === 'retry' ? d.delaySeconds : d.action;
		} );
		expect( delays ).toEqual( [ 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400, 86400, 'give-up' ] );
	} );

	it( 'keeps retrying for at least 72 hours, even when jitter shortens every delay', () => {
		const shortest = (): number => 0; // 2*0-1 = -1 → every delay cut by the whole jitter ratio
		let waited = 0;
		for ( let attempt = 1; ; attempt++ ) {
			const d = decide( status( 500 ), attempt, cfg, shortest );
			if ( d.action !== 'retry' ) {
				break;
			}
			waited += d.delaySeconds;
		}
		expect( waited / 3600 ).toBeGreaterThanOrEqual( 72 );
	} );

	it.each( [ status( 500 ), status( 429 ), status( 301 ), netErr( 'ETIMEDOUT' ) ] )(
		'%j after the last scheduled attempt → give-up',
		( outcome ) => {
			const last = cfg.scheduleSeconds.length;
			const d = decide( outcome, last, cfg, noJitter );
			expect( d ).toMatchObject( {
				action: 'give-up',
				reason: expect.stringMatching( new RegExp( `attempts exhausted after ${ last }` ) ),
			} );
			expect( decide( outcome, last + 1, cfg, noJitter ) ).toMatchObject( { action: 'give-up' } );
		}
	);

	it.each( [ 429, 502, 503, 504 ] )( '%i gets at least the overload penalty', ( s ) => {
		expect( decide( status( s ), 1, cfg, noJitter ) ).toMatchObject( { action: 'retry', delaySeconds: 60 } );
		// Later in the schedule the scheduled delay already exceeds the penalty.
		expect( decide( status( s ), 2, cfg, noJitter ) ).toMatchObject( { action: 'retry', delaySeconds: 300 } );
	} );

	it.each( [ 'ETIMEDOUT', 'ECONNABORTED' ] )( 'timeout %s gets at least the overload penalty', ( code ) => {
		expect( decide( netErr( code ), 1, cfg, noJitter ) ).toMatchObject( { action: 'retry', delaySeconds: 60 } );
	} );

	it( '500 does not get the overload penalty', () => {
		expect( decide( status( 500 ), 1, cfg, noJitter ) ).toMatchObject( { delaySeconds: 5 } );
	} );

	describe( 'Retry-After', () => {
		it.each( [ 429, 503 ] )( '%i honours a longer delta-seconds Retry-After', ( s ) => {
			expect( decide( status( s, '120' ), 1, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 120 } );
		} );

		it( 'never retries sooner than the schedule/penalty even if Retry-After is shorter', () => {
			expect( decide( status( 429, '1' ), 1, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 60 } );
			expect( decide( status( 503, '0' ), 3, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 1800 } );
		} );

		it( 'caps Retry-After at 24h', () => {
			expect( decide( status( 503, '999999' ), 1, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 86400 } );
			expect( decide( status( 503, '9'.repeat( 400 ) ), 1, cfg, noJitter, NOW ) ).toMatchObject( {
				delaySeconds: 86400,
			} );
		} );

		it( 'accepts an HTTP-date relative to the injected clock', () => {
			const in10min = new Date( NOW + 600_000 ).toUTCString();
			expect( decide( status( 429, in10min ), 1, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 600 } );
		} );

		it( 'is ignored on other statuses and when malformed', () => {
			expect( decide( status( 500, '600' ), 1, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 5 } );
			expect( decide( status( 502, '600' ), 1, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 60 } );
			expect( decide( status( 429, 'soon' ), 1, cfg, noJitter, NOW ) ).toMatchObject( { delaySeconds: 60 } );
		} );
	} );

	describe( 'jitter', () => {
		const plain: RetryPolicyConfig = {
			scheduleSeconds: [ 0, 100, 1000 ],
			jitterRatio: 0.2,
			overloadPenaltySeconds: 0,
		};
		const delayWith = ( r: number, attempt = 1 ): number => {
			const d = decide( status( 500 ), attempt, plain, () => r );
			if ( d.action !== 'retry' ) {
				throw new Error( `expected retry, got ${ d.action }` );
			}
			return d.delaySeconds;
		};

		it( 'spans delay * (1 ± jitterRatio)', () => {
			expect( delayWith( 0 ) ).toBe( 80 );
			expect( delayWith( 0.5 ) ).toBe( 100 );
			expect( delayWith( 0.75 ) ).toBe( 110 );
			expect( delayWith( 0.999999 ) ).toBeCloseTo( 120, 3 );
		} );

		it( 'stays within bounds for many random draws with Math.random', () => {
			for ( let i = 0; i < 1000; i++ ) {
				const d = decide( status( 500 ), 2, plain );
				expect( d.action ).toBe( 'retry' );
				if ( d.action === 'retry' ) {
					expect( d.delaySeconds ).toBeGreaterThanOrEqual( 800 );
					expect( d.delaySeconds ).toBeLessThanOrEqual( 1200 );
				}
			}
		} );

		it( 'is never negative, even with a jitterRatio above 1', () => {
			const wild: RetryPolicyConfig = { scheduleSeconds: [ 0, 10 ], jitterRatio: 3, overloadPenaltySeconds: 0 };
			expect( decide( status( 500 ), 1, wild, () => 0 ) ).toMatchObject( { delaySeconds: 0 } );
		} );

		it( 'keeps a zero delay at zero', () => {
			const immediate: RetryPolicyConfig = {
				scheduleSeconds: [ 0, 0 ],
				jitterRatio: 0.2,
				overloadPenaltySeconds: 0,
			};
			expect( decide( status( 500 ), 1, immediate, () => 1 ) ).toMatchObject( { delaySeconds: 0 } );
		} );

		it( 'applies before the overload penalty floor', () => {
			const cfg2: RetryPolicyConfig = {
				scheduleSeconds: [ 0, 100 ],
				jitterRatio: 0.2,
				overloadPenaltySeconds: 90,
			};
			expect( decide( status( 503 ), 1, cfg2, () => 0 ) ).toMatchObject( { delaySeconds: 90 } );
			expect( decide( status( 503 ), 1, cfg2, () => 1 ) ).toMatchObject( { delaySeconds: 120 } );
		} );
	} );

	it.each( [ 0, -1, 1.5, Number.NaN ] )( 'rejects attemptNumber %p', ( n ) => {
		expect( () => decide( status( 500 ), n, cfg ) ).toThrow( RangeError );
	} );
} );

describe( 'parseRetryAfter', () => {
	it.each( [
		[ undefined, undefined ],
		[ '', undefined ],
		[ '0', 0 ],
		[ '120', 120 ],
		[ ' 120 ', 120 ],
		[ '-5', undefined ],
		[ '1.5', undefined ],
		[ '1e3', undefined ],
		[ 'soon', undefined ],
		[ '2024', 2024 ], // delta-seconds, not a year
		[ 'Wed, 01 Jan 2025 12:02:00 GMT', 120 ], // IMF-fixdate
		[ 'Wednesday, 01-Jan-25 12:02:00 GMT', 120 ], // obsolete RFC 850
		[ 'Wed Jan  1 12:02:00 2025', 120 ], // asctime (implicitly GMT)
		[ 'Wed, 01 Jan 2025 12:00:00 GMT', 0 ], // now
		[ 'Tue, 31 Dec 2024 12:00:00 GMT', 0 ], // past clamps to 0
		[ 'Wed, 01 Jan 2025 12:00:00 +0100', undefined ], // not an HTTP-date
		[ '2025-01-01T12:02:00Z', undefined ], // ISO is not an HTTP-date
		[ 'Wed, 01 Jan 2025 12:00:01 GMT', 1 ],
	] )( '%p → %p', ( value, expected ) => {
		expect( parseRetryAfter( value, NOW ) ).toBe( expected );
	} );

	it( 'rounds partial seconds up so we never retry early', () => {
		expect( parseRetryAfter( 'Wed, 01 Jan 2025 12:00:01 GMT', NOW + 500 ) ).toBe( 1 );
	} );

	it( 'treats absurd delta-seconds as very large rather than invalid', () => {
		expect( parseRetryAfter( '9'.repeat( 400 ), NOW ) ).toBe( Number.MAX_SAFE_INTEGER );
	} );
} );
