package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link YamlNumberForms}, on YAML loaded by Boot's own loader.
 *
 * @author rdma-counters
 */
class YamlNumberFormsTests {

	@Test
	void readsTheScalarAsWrittenAtTheValuesOrigin() throws IOException {
		ConfigurationProperty port = property(
				"rdma:\n  counter-sets:\n    x:\n      flow:\n" + "        destination-port: 04420 # NVMe/TCP\n",
				"rdma.counter-sets.x.flow.destination-port");
		assertThat(port.getValue()).isEqualTo(2320);
		assertThat(YamlNumberForms.textAt(Origin.from(port))).isEqualTo("04420");
	}

	@Test
	void readsABase60ScalarAsWritten() throws IOException {
		ConfigurationProperty ttl = property("rdma:\n  read-cache-ttl: 1:30\n", "rdma.read-cache-ttl");
		assertThat(ttl.getValue()).isEqualTo(90);
		assertThat(YamlNumberForms.textAt(Origin.from(ttl))).isEqualTo("1:30");
	}

	private static ConfigurationProperty property(String yaml, String name) throws IOException {
		List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("application.yml",
				new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)));
		List<ConfigurationProperty> found = new ArrayList<>();
		for (PropertySource<?> source : sources) {
			ConfigurationProperty property = ConfigurationPropertySource.from(source)
				.getConfigurationProperty(ConfigurationPropertyName.of(name));
			if (property != null) {
				found.add(property);
			}
		}
		assertThat(found).hasSize(1);
		return found.get(0);
	}

}
