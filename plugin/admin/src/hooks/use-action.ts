/**
 * Runs one change at a time (create, revoke, replay, ...), remembering which one is busy
 * and the current problem: the error of the last change, or a form's validation error.
 * There is one slot for both, so a new problem always replaces the previous one.
 */
import { useCallback, useRef, useState } from '@wordpress/element';
import { ApiError, invalidInput, toApiError } from '../api/client';

export interface Action {
	/** Key of the change in progress, or null. */
	busy: string | null;
	error: ApiError | null;
	clearError: () => void;
	/** Shows a form's validation error in place of whatever error was showing. */
	invalid: ( message: string, field?: string ) => void;
	/** Resolves with the result, or with undefined when the call failed (see `error`). */
	run: < T >( key: string, fn: () => Promise< T > ) => Promise< T | undefined >;
}

export function useAction(): Action {
	const [ busy, setBusy ] = useState< string | null >( null );
	const [ error, setError ] = useState< ApiError | null >( null );
	const running = useRef( false );

	const run = useCallback( async < T >( key: string, fn: () => Promise< T > ): Promise< T | undefined > => {
		if ( running.current ) {
			return undefined;
		}
		running.current = true;
		setBusy( key );
		setError( null );
		try {
			return await fn();
		} catch ( raw ) {
			setError( toApiError( raw ) );
			return undefined;
		} finally {
			running.current = false;
			setBusy( null );
		}
	}, [] );

	const clearError = useCallback( () => setError( null ), [] );
	const invalid = useCallback(
		( message: string, field?: string ) => setError( invalidInput( message, field ) ),
		[]
	);
	return { busy, error, clearError, invalid, run };
}
