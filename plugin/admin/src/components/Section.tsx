import { Card, CardBody, CardHeader } from '@wordpress/components';
import { useId } from '@wordpress/element';

interface Props {
	title: string;
	description?: string;
	actions?: React.ReactNode;
	children: React.ReactNode;
}

/** One titled card; the heading names the region for screen readers. */
export function Section( { title, description, actions, children }: Props ) {
	const id = useId();
	return (
		<section className="si-section" aria-labelledby={ id }>
			<Card>
				<CardHeader className="si-section__header">
					<h2 id={ id } className="si-section__title">
						{ title }
					</h2>
					{ actions ? <div className="si-section__actions">{ actions }</div> : null }
				</CardHeader>
				<CardBody>
					{ description ? <p className="si-section__description">{ description }</p> : null }
					{ children }
				</CardBody>
			</Card>
		</section>
	);
}
