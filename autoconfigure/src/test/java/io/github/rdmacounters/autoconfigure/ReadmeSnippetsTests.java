package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

import io.github.rdmacounters.autoconfigure.simulated.RdmaSimulatedTrafficAutoConfiguration;
import io.github.rdmacounters.core.CounterSet;
import io.github.rdmacounters.core.Counters;
import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that the snippets of the README and of every page under {@code docs/} are true:
 * each YAML block that configures the application starts a context (on the simulated
 * backend when it says so, otherwise on the native backend over the fake libibverbs with
 * an mlx5_0 device), every other YAML block parses, and each complete Java example
 * compiles against the starter as written, imports included.
 *
 * @author rdma-counters
 */
class ReadmeSnippetsTests {

	/** Top-level keys of a YAML block that configures the application. */
	private static final Pattern APPLICATION_YAML = Pattern.compile("^(rdma|management|spring):", Pattern.MULTILINE);

	private final FakeVerbs fake = FakeVerbs.get();

	@BeforeEach
	void fakeMlx5() {
		this.fake.reset();
		this.fake.device("mlx5_0").add();
	}

	@AfterEach
	void resetFake() {
		this.fake.reset();
	}

	static Stream<String> yamlBlocks() throws IOException {
		List<String> blocks = blocks("yaml").stream()
			.filter((block) -> APPLICATION_YAML.matcher(block).find())
			.toList();
		assertThat(blocks).as("application YAML blocks of the README and docs/").hasSizeGreaterThanOrEqualTo(7);
		return blocks.stream();
	}

	@Test
	void everyOtherYamlBlockParses() throws IOException {
		List<String> others = blocks("yaml").stream()
			.filter((block) -> !APPLICATION_YAML.matcher(block).find())
			.toList();
		assertThat(others).as("Prometheus configurations in docs/").isNotEmpty();
		for (String block : others) {
			assertThat(new YamlPropertySourceLoader().load("block",
					new ByteArrayResource(block.getBytes(StandardCharsets.UTF_8))))
				.as("YAML of\n%s", block)
				.isNotEmpty();
		}
	}

	@ParameterizedTest
	@MethodSource("yamlBlocks")
	void yamlBlockStartsAContextWithItsSetsCounting(String yaml, @TempDir Path temp) throws IOException {
		if (yaml.contains("mlx5_1")) {
			this.fake.device("mlx5_1").ports(2).add();
		}
		// mlx5_0 has the netdev ens1f0np0 in this host's sysfs
		HostSysfs host = FakeDeviceSets.sysfs(temp);
		List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("README",
				new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8)));
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(RdmaAutoConfiguration.class, RdmaSimulatedTrafficAutoConfiguration.class))
			.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
					"rdma.port-counters.sysfs-root=" + host.root())
			.withInitializer((context) -> sources
				.forEach((source) -> context.getEnvironment().getPropertySources().addFirst(source)))
			.run((context) -> {
				assertThat(context).as("context of\n%s", yaml).hasNotFailed();
				RdmaRegistry registry = context.getBean(RdmaRegistry.class);
				assertThat(registry.devices()).as("devices of\n%s", yaml).allMatch(ManagedDevice::isAvailable);
				assertThat(registry.counterSets()).as("sets of\n%s", yaml)
					.allSatisfy((set) -> assertThat(set.read().isSuccess()).as(set.name()).isTrue());
				assertThat(context.getBeansOfType(Counters.class).values()).as("Counters beans of\n%s", yaml)
					.containsExactlyInAnyOrderElementsOf(
							registry.counterSets().stream().map(CounterSet::counters).toList());
			});
	}

	@Test
	void javaBlocksCompileAsWritten(@TempDir Path sources) throws IOException {
		// complete compilation units; a block without a package declaration is a fragment
		List<String> blocks = blocks("java").stream()
			.filter((block) -> Pattern.compile("^package ", Pattern.MULTILINE).matcher(block).find())
			.toList();
		assertThat(blocks).as("Java examples of the README and docs/").hasSizeGreaterThanOrEqualTo(7);
		List<String> files = new ArrayList<>();
		for (String block : blocks) {
			Matcher pkg = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE).matcher(block);
			Matcher type = Pattern.compile("^(?:public )?(?:final )?class (\\w+)", Pattern.MULTILINE).matcher(block);
			assertThat(pkg.find() && type.find()).as("a complete compilation unit:\n%s", block).isTrue();
			Path file = sources.resolve(pkg.group(1).replace('.', '/')).resolve(type.group(1) + ".java");
			Files.createDirectories(file.getParent());
			Files.writeString(file, block);
			files.add(file.toString());
		}
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		StringWriter output = new StringWriter();
		List<String> arguments = new ArrayList<>(List.of("-proc:none", "-d", sources.resolve("classes").toString(),
				"-classpath", System.getProperty("java.class.path")));
		arguments.addAll(files);
		Files.createDirectories(sources.resolve("classes"));
		boolean compiled = compiler
			.getTask(output, null, null, arguments.subList(0, 5), null,
					compiler.getStandardFileManager(null, null, StandardCharsets.UTF_8)
						.getJavaFileObjects(files.toArray(String[]::new)))
			.call();
		assertThat(compiled).as("javac output:\n%s", output).isTrue();
	}

	/**
	 * The blocks of one language in the README and every page under {@code docs/}.
	 * @param language the fence's language
	 * @return the blocks' text
	 * @throws IOException if a page cannot be read
	 */
	static List<String> blocks(String language) throws IOException {
		List<String> blocks = new ArrayList<>();
		for (Path page : pages()) {
			Matcher block = Pattern.compile("^```" + language + "\\n(.*?)^```", Pattern.MULTILINE | Pattern.DOTALL)
				.matcher(Files.readString(page, StandardCharsets.UTF_8));
			while (block.find()) {
				blocks.add(block.group(1));
			}
		}
		return blocks;
	}

	/**
	 * One page of the documentation.
	 * @param path the page's path from the repository's root, e.g.
	 * {@code docs/metrics.md}
	 * @return its text
	 * @throws IOException if it cannot be read
	 */
	static String page(String path) throws IOException {
		Path page = root().resolve(path);
		assertThat(page).as("documentation page %s", path).isRegularFile();
		return Files.readString(page, StandardCharsets.UTF_8);
	}

	static List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>(List.of(root().resolve("README.md")));
		try (Stream<Path> docs = Files.walk(root().resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		return pages;
	}

	private static Path root() {
		Path module = Path.of("").toAbsolutePath();
		for (Path dir = module; dir != null; dir = dir.getParent()) {
			if (Files.exists(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("docs"))
					&& Files.exists(dir.resolve("autoconfigure"))) {
				return dir;
			}
		}
		throw new AssertionError("No README.md and docs/ above " + module);
	}

}
