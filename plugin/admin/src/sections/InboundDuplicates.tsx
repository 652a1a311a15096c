import { __, _n, sprintf } from '@wordpress/i18n';
import { formatDateTime, NONE } from '../components/format';
import { StatusBadge } from '../components/StatusBadge';

/** An event's redeliveries: acknowledged to the sender as duplicates, never processed again. */
export function InboundDuplicates( { count, lastAt }: { count: number; lastAt: string | null } ) {
	if ( count <= 0 ) {
		return <>{ NONE }</>;
	}
	return (
		<>
			<StatusBadge tone="neutral">
				{ sprintf(
					/* translators: %d: number of duplicate deliveries. */ _n(
						'%d duplicate',
						'%d duplicates',
						count,
						'service-integration'
					),
					count
				) }
			</StatusBadge>
			<br />
			{ sprintf(
				/* translators: %s: date and time. */ __( 'Last %s', 'service-integration' ),
				formatDateTime( lastAt )
			) }
		</>
	);
}
