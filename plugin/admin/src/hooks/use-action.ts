/**
 * Runs one change at a time (create, revoke, replay, ...), remembering which one is busy
 * and the error of the last one.
 */
import { useCallback, useRef, useState } from '@wordpress/element';
import { ApiError, toApiError } from '../api/client';

export interface Action {
	/** Key of the change in progress, or null. */
	busy: string | null;
	error: ApiError | null;
	clearError: () => void;
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
	return { busy, error, clearError, run };
}
