package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code rdma.enabled} is false; a value that is no boolean fails startup
 * instead of meaning false.
 *
 * @author rdma-counters
 */
class OnRdmaEnabledCondition extends SpringBootCondition {

	private static final String PROPERTY = RdmaProperties.PREFIX + ".enabled";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		boolean enabled;
		try {
			enabled = Binder.get(context.getEnvironment()).bind(PROPERTY, Boolean.class).orElse(true);
		}
		catch (BindException ex) {
			Object value = (ex.getProperty() != null) ? ex.getProperty().getValue() : null;
			throw new InvalidConfigurationPropertyValueException(PROPERTY, value,
					"must be true or false: whether to enable RDMA counters");
		}
		return enabled ? ConditionOutcome.match(PROPERTY + " is true or not set")
				: ConditionOutcome.noMatch(PROPERTY + " is false");
	}

}
