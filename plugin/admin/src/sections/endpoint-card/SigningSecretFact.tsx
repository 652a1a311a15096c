import { __, sprintf } from '@wordpress/i18n';
import type { Endpoint } from '../../api/webhooks';
import { SecretMask } from '../../components/Code';
import { formatDateTime, NONE } from '../../components/format';

/** The current signing secret, masked, and until when the previous one still signs after a rotation. */
export function SigningSecretFact( { secrets }: { secrets: Endpoint[ 'secrets' ] } ) {
	const [ current, ...previous ] = secrets;
	return (
		<>
			<dt>{ __( 'Signing secret', 'service-integration' ) }</dt>
			<dd>
				{ current ? <SecretMask masked={ current.masked } /> : NONE }
				{ previous.length
					? ` ${ sprintf(
							/* translators: %s: date and time. */ __(
								'(the previous one also signs until %s)',
								'service-integration'
							),
							formatDateTime( previous[ 0 ]?.expires_at )
						) }`
					: null }
			</dd>
		</>
	);
}
