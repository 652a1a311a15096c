import type { ServiceAccountState } from '../../api/service-account';

/** How a capability of the role compares with the list the role is built from. */
export type CapabilityVerdict = 'ok' | 'widened' | 'missing' | 'removed';

export interface CapabilityRow {
	name: string;
	/** Whether the list grants it (false also when the list does not name it). */
	expected: boolean;
	/** What the role holds: granted, denied, or null when the role does not name it. */
	onRole: boolean | null;
	verdict: CapabilityVerdict;
}

/** Every capability the list, the role or a refused widening names, once, with its verdict. */
export function capabilityRows( state: ServiceAccountState ): CapabilityRow[] {
	const names = Array.from(
		new Set( [
			...Object.keys( state.expected_capabilities ),
			...Object.keys( state.role_capabilities ),
			...state.widening_detected,
		] )
	);
	return names.map( ( name ) => {
		const expected = state.expected_capabilities[ name ] === true;
		const onRole = name in state.role_capabilities ? state.role_capabilities[ name ] === true : null;
		let verdict: CapabilityVerdict = 'ok';
		if ( state.widening_detected.includes( name ) || ( ! expected && onRole === true ) ) {
			verdict = 'widened';
		} else if ( expected && onRole === null ) {
			verdict = 'missing';
		} else if ( expected && onRole === false ) {
			verdict = 'removed';
		}
		return { name, expected, onRole, verdict };
	} );
}
