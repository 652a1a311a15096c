import { Button } from '@wordpress/components';
import { __, _n, sprintf } from '@wordpress/i18n';

interface Props {
	page: number;
	perPage: number;
	total: number;
	busy: boolean;
	onPage: ( page: number ) => void;
	/** Names the navigation, e.g. "Delivery pages". */
	label: string;
}

/** Previous / next with "Page 2 of 5 (93 items)"; nothing when everything fits on one page. */
export function Pager( { page, perPage, total, busy, onPage, label }: Props ) {
	const pages = Math.max( 1, Math.ceil( total / perPage ) );
	if ( total === 0 || ( pages === 1 && page === 1 ) ) {
		return total > 0 ? (
			<p className="si-pager si-pager__status" aria-live="polite">
				{ sprintf(
					/* translators: %d: number of items. */ _n( '%d item', '%d items', total, 'service-integration' ),
					total
				) }
			</p>
		) : null;
	}
	return (
		<nav className="si-pager" aria-label={ label }>
			<Button
				variant="secondary"
				size="compact"
				disabled={ page <= 1 || busy }
				onClick={ () => onPage( Math.max( 1, page - 1 ) ) }
			>
				{ __( 'Previous page', 'service-integration' ) }
			</Button>
			<span className="si-pager__status" aria-live="polite">
				{ sprintf(
					/* translators: 1: current page, 2: number of pages, 3: number of items. */ _n(
						'Page %1$d of %2$d (%3$d item)',
						'Page %1$d of %2$d (%3$d items)',
						total,
						'service-integration'
					),
					page,
					pages,
					total
				) }
			</span>
			<Button
				variant="secondary"
				size="compact"
				disabled={ page >= pages || busy }
				onClick={ () => onPage( page + 1 ) }
			>
				{ __( 'Next page', 'service-integration' ) }
			</Button>
		</nav>
	);
}
