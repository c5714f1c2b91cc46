package io.github.rdmacounters.example;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link PlainJavaExample}: the library works with no Spring on the class path,
 * and docs/without-spring.md shows the example as it is.
 *
 * @author rdma-counters
 */
class PlainJavaExampleTests {

	@Test
	void classPathHasNoSpring() {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.springframework.core.SpringVersion"));
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName("org.springframework.boot.SpringApplication"));
	}

	@Test
	void mainCountsOnlyTheTrafficItsFlowMatches() throws Exception {
		PrintStream original = System.out;
		ByteArrayOutputStream output = new ByteArrayOutputStream();
		System.setOut(new PrintStream(output, true, StandardCharsets.UTF_8));
		try {
			PlainJavaExample.main(new String[0]);
		}
		finally {
			System.setOut(original);
		}
		assertThat(output.toString(StandardCharsets.UTF_8))
			.isEqualToIgnoringNewLines("nvme-tcp: 1 packets, 4096 bytes");
	}

	@Test
	void readmeShowsTheExampleAsItIs() throws Exception {
		String source = Files.readString(Path.of("src/test/java/io/github/rdmacounters/example/PlainJavaExample.java"));
		String snippet = source.substring(
				source.indexOf("// README: plain-java\n") + "// README: plain-java\n".length(),
				source.indexOf("\t\t// README: end"));
		String page = Files.readString(Path.of("../docs/without-spring.md"));
		assertThat(page).contains(snippet);
	}

}
