/**
 * What a paged list asks for: its filters and its page. A new filter value goes back to the
 * first page, since the page the reader was on may not exist in the new list.
 */
import { useCallback, useState } from '@wordpress/element';

/** Rows per page of every paged list on the page. */
export const PER_PAGE = 20;

export interface ListQuery< Filters extends Record< string, string > > {
	filters: Filters;
	setFilter: ( key: keyof Filters, value: string ) => void;
	page: number;
	setPage: ( page: number ) => void;
	perPage: number;
}

export function useListQuery< Filters extends Record< string, string > >( initial: Filters ): ListQuery< Filters > {
	const [ filters, setFilters ] = useState< Filters >( initial );
	const [ page, setPage ] = useState( 1 );
	const setFilter = useCallback( ( key: keyof Filters, value: string ) => {
		setFilters( ( current ) => ( { ...current, [ key ]: value } ) );
		setPage( 1 );
	}, [] );
	return { filters, setFilter, page, setPage, perPage: PER_PAGE };
}
