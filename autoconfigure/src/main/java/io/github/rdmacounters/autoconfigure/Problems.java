package io.github.rdmacounters.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

import io.github.rdmacounters.core.InvalidRdmaConfigurationException;
import io.github.rdmacounters.core.InvalidRdmaConfigurationException.Problem;

/**
 * The problems found in the {@code rdma} properties, each with the value as written
 * ({@code 10ms}, not {@code PT0.01S}).
 *
 * @author rdma-counters
 */
final class Problems {

	private final Environment environment;

	private final List<Problem> problems = new ArrayList<>();

	Problems(Environment environment) {
		this.environment = environment;
	}

	/**
	 * Add a problem; the value as bound is shown when the written one cannot be found.
	 */
	void add(String property, @Nullable Object value, String requirement) {
		ConfigurationProperty written = property(property);
		// Boot's analysis finds no origin for a relaxed environment variable name
		String from = (written != null && written.getOrigin() instanceof PropertySourceOrigin origin
				&& StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME
					.equals(origin.getPropertySource().getName())
				&& !origin.getPropertyName().equals(property))
						? " (set by the environment variable " + origin.getPropertyName() + ")" : "";
		this.problems.add(new Problem(property, (written != null) ? written.getValue() : value, requirement + from));
	}

	int size() {
		return this.problems.size();
	}

	void clear() {
		this.problems.clear();
	}

	/** The value of a property as written, or {@code null} if it is not set. */
	@Nullable Object raw(String name) {
		ConfigurationProperty property = property(name);
		return (property != null) ? property.getValue() : null;
	}

	void throwIfAny() {
		if (this.problems.size() == 1) {
			Problem problem = this.problems.get(0);
			throw new InvalidConfigurationPropertyValueException(problem.property(), problem.value(),
					problem.requirement());
		}
		if (!this.problems.isEmpty()) {
			throw new InvalidRdmaConfigurationException(List.copyOf(this.problems));
		}
	}

	static String kebab(String camel) {
		return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
	}

	private @Nullable ConfigurationProperty property(String name) {
		ConfigurationPropertyName property = ConfigurationPropertyName.ofIfValid(name);
		// a map key with characters a name cannot have, such as the '_' of mlx5_0, is
		// adapted as Boot adapts the names of the property sources
		return find(this.environment, (property != null) ? property : ConfigurationPropertyName.adapt(name, '.'));
	}

	static @Nullable ConfigurationProperty find(Environment environment, ConfigurationPropertyName name) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			ConfigurationProperty value = source.getConfigurationProperty(name);
			if (value != null) {
				return value;
			}
		}
		return null;
	}

}
