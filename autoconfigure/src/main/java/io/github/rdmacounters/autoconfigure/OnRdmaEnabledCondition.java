package io.github.rdmacounters.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code rdma.enabled} is false; a value that is no boolean fails startup
 * instead of meaning false. The nested conditions do the same for the other switches of
 * the starter: they convert the value as {@link RdmaProperties} does, so that {@code yes}
 * or {@code on} mean what they mean there ({@code @ConditionalOnBooleanProperty} would
 * read them as false) and {@code yes please} is refused.
 *
 * @author rdma-counters
 */
public class OnRdmaEnabledCondition extends SpringBootCondition {

	private final String property;

	private final boolean matchIfMissing;

	private final String meaning;

	public OnRdmaEnabledCondition() {
		this(RdmaProperties.PREFIX + ".enabled", true, "whether to enable RDMA counters");
	}

	/**
	 * Create a condition on another switch of the starter.
	 * @param property the switch, e.g. {@code rdma.ui.enabled}
	 * @param matchIfMissing whether it matches when the switch is not set
	 * @param meaning what the switch means, for the message of a value that is no boolean
	 */
	protected OnRdmaEnabledCondition(String property, boolean matchIfMissing, String meaning) {
		this.property = property;
		this.matchIfMissing = matchIfMissing;
		this.meaning = meaning;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		// a lookup of the one property, as Boot's property conditions do: no pass over
		// the property sources
		boolean enabled;
		try {
			enabled = context.getEnvironment().getProperty(this.property, Boolean.class, this.matchIfMissing);
		}
		catch (ConversionException | IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(this.property,
					context.getEnvironment().getProperty(this.property), "must be true or false: " + this.meaning);
		}
		return enabled ? ConditionOutcome.match(this.property + " is true" + (this.matchIfMissing ? " or not set" : ""))
				: ConditionOutcome.noMatch(this.property + " is false" + (this.matchIfMissing ? "" : " or not set"));
	}

	/**
	 * Matches unless {@code rdma.port-counters.enabled} is false.
	 */
	public static final class PortCounters extends OnRdmaEnabledCondition {

		public PortCounters() {
			super(RdmaProperties.PREFIX + ".port-counters.enabled", true,
					"whether to read the port counters of the host's devices");
		}

	}

}
