/**
 * Loads something from the API with loading and error states, and ignores answers that
 * arrive after a newer load started (or after the component went away).
 */
import { useCallback, useEffect, useRef, useState } from '@wordpress/element';
import { ApiError, toApiError } from '../api/client';

export interface Resource< T > {
	data: T | undefined;
	error: ApiError | null;
	loading: boolean;
	reload: () => void;
	/** Replaces the data locally, after a change the caller already knows the result of. */
	setData: ( data: T ) => void;
}

export function useResource< T >( load: () => Promise< T >, deps: readonly unknown[] ): Resource< T > {
	const [ data, setData ] = useState< T | undefined >( undefined );
	const [ error, setError ] = useState< ApiError | null >( null );
	const [ loading, setLoading ] = useState( true );
	const [ generation, setGeneration ] = useState( 0 );
	const latest = useRef( 0 );

	useEffect( () => {
		const ticket = ++latest.current;
		setLoading( true );
		load().then(
			( value ) => {
				if ( ticket === latest.current ) {
					setData( value );
					setError( null );
					setLoading( false );
				}
			},
			( raw: unknown ) => {
				if ( ticket === latest.current ) {
					setError( toApiError( raw ) );
					setLoading( false );
				}
			}
		);
		return () => {
			// A newer load (or unmount) makes this one stale. The ref is a counter, not a DOM node:
			// its current value at cleanup time is the one to advance.
			// eslint-disable-next-line react-hooks/exhaustive-deps
			latest.current++;
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [ ...deps, generation ] );

	const reload = useCallback( () => setGeneration( ( n ) => n + 1 ), [] );
	return { data, error, loading, reload, setData };
}
