package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.rdmacounters.autoconfigure.RdmaDeviceProperties.CounterSetProperties;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the configuration reference in the README lists every {@code rdma} property and
 * no property that does not exist.
 *
 * @author rdma-counters
 */
class ReadmeConfigurationReferenceTests {

	private static final String SET_PREFIX = "rdma.counter-sets.<name>";

	@Test
	void referenceListsEveryPropertyAndNothingElse() throws IOException {
		Set<String> expected = new TreeSet<>();
		RdmaConfigurationMetadataTests.collect(RdmaProperties.PREFIX, RdmaProperties.class, expected);
		RdmaConfigurationMetadataTests.collect(SET_PREFIX, CounterSetProperties.class, expected);
		Set<String> documented = documentedProperties();
		assertThat(documented).as("properties in the README's configuration reference").containsAll(expected);
		assertThat(expected).as("properties the README documents").containsAll(documented);
	}

	private static Set<String> documentedProperties() throws IOException {
		String readme = Files.readString(readme(), StandardCharsets.UTF_8);
		int start = readme.indexOf("## Configuration reference");
		assertThat(start).as("README section 'Configuration reference'").isNotNegative();
		int end = readme.indexOf("\n## ", start + 1);
		String section = readme.substring(start, (end < 0) ? readme.length() : end);
		Set<String> names = new TreeSet<>();
		Matcher row = Pattern.compile("^\\| `(rdma\\.[^`]+)` \\|", Pattern.MULTILINE).matcher(section);
		while (row.find()) {
			names.add(row.group(1));
		}
		return names;
	}

	private static Path readme() {
		Path module = Path.of("").toAbsolutePath();
		for (Path dir = module; dir != null; dir = dir.getParent()) {
			Path candidate = dir.resolve("README.md");
			if (Files.exists(candidate) && Files.exists(dir.resolve("autoconfigure"))) {
				return candidate;
			}
		}
		throw new AssertionError("No README.md above " + module);
	}

}
