import type { ListQuery } from '../hooks/use-list-query';
import type { Resource } from '../hooks/use-resource';
import { FilterSelect } from './FilterSelect';
import type { Option } from './format';
import { Pager } from './Pager';
import { ResourceState } from './ResourceState';

/** One filter of a list: a select over one of the query's filters. */
export interface ListFilter< Filters > {
	key: keyof Filters & string;
	label: string;
	/** The first choice, which filters nothing, e.g. "All statuses". */
	allLabel: string;
	options: Option[];
}

interface Paging< Data, Filters extends Record< string, string > > {
	query: ListQuery< Filters >;
	/** How many items match, on every page. */
	total: ( data: Data ) => number;
	/** Names the pager's navigation, e.g. "Delivery pages". */
	label: string;
}

interface Props< Data, Item, Filters extends Record< string, string > > {
	resource: Resource< Data >;
	items: ( data: Data ) => readonly Item[];
	/** Loading, its failure, and an empty answer, in the list's words. */
	labels: { loading: string; error: string; empty: string };
	onRetry?: () => void;
	/** The filters above the list, named for screen readers (e.g. "Filter the deliveries"). */
	filters?: { label: string; query: ListQuery< Filters >; fields: ListFilter< Filters >[] };
	paging?: Paging< Data, Filters >;
	/** What a change made from the list did (or why it failed), between the filters and the list. */
	notices?: React.ReactNode;
	/** The list itself (a DataTable, or cards), given the items of the answer. */
	children: ( items: readonly Item[] ) => React.ReactNode;
}

/**
 * A list on the admin page: its filters, the first load and its failure, the list or what
 * an empty one says, and the pager. Every list screen of the page is drawn by this one.
 */
export function ListScreen< Data, Item, Filters extends Record< string, string > = Record< string, string > >( {
	resource,
	items,
	labels,
	onRetry,
	filters,
	paging,
	notices,
	children,
}: Props< Data, Item, Filters > ) {
	const data = resource.error ? undefined : resource.data;
	const shown = data === undefined ? [] : items( data );
	return (
		<>
			{ filters ? (
				<div className="si-filters" role="search" aria-label={ filters.label }>
					{ filters.fields.map( ( field ) => (
						<FilterSelect
							key={ field.key }
							label={ field.label }
							allLabel={ field.allLabel }
							value={ filters.query.filters[ field.key ] ?? '' }
							options={ field.options }
							onChange={ ( value: string ) => filters.query.setFilter( field.key, value ) }
						/>
					) ) }
				</div>
			) : null }
			{ notices }
			<ResourceState
				resource={ resource }
				loadingLabel={ labels.loading }
				errorContext={ labels.error }
				onRetry={ onRetry }
			/>
			{ data !== undefined && shown.length === 0 ? <p className="si-empty">{ labels.empty }</p> : null }
			{ data !== undefined && shown.length > 0 ? children( shown ) : null }
			{ data !== undefined && paging ? (
				<Pager
					page={ paging.query.page }
					perPage={ paging.query.perPage }
					total={ paging.total( data ) }
					busy={ resource.loading }
					onPage={ paging.query.setPage }
					label={ paging.label }
				/>
			) : null }
		</>
	);
}
