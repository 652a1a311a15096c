import type { Endpoint } from '../api/webhooks';
import { Code } from '../components/Code';
import { EndpointActions, type EndpointActionsProps } from './endpoint-card/EndpointActions';
import { EndpointFacts } from './endpoint-card/EndpointFacts';
import { EndpointStatusBadge, healthOf } from './endpoint-card/EndpointStatusBadge';

/** One outbound endpoint: its URL and status, what it is set to and how it fares, and its buttons. */
export function EndpointCard( { endpoint, ...actions }: EndpointActionsProps & { endpoint: Endpoint } ) {
	const health = healthOf( endpoint );
	return (
		<article
			className={ `si-endpoint si-endpoint--${ health }` }
			aria-label={ endpoint.url }
			data-endpoint-id={ endpoint.id }
			data-health={ health }
		>
			<header className="si-endpoint__header">
				<Code className="si-endpoint__url">{ endpoint.url }</Code>
				<EndpointStatusBadge endpoint={ endpoint } />
			</header>
			<EndpointFacts endpoint={ endpoint } />
			<EndpointActions endpoint={ endpoint } { ...actions } />
		</article>
	);
}
