package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;

import io.github.rdmacounters.core.ManagedDevice;
import io.github.rdmacounters.core.RdmaRegistry;
import io.github.rdmacounters.sysfs.HostSysfs;
import io.github.rdmacounters.testsupport.FakeVerbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Tests the Kubernetes example in {@code docs/kubernetes/}: every manifest parses and is
 * consistent (resources, capabilities, probes, the PodMonitor's selector and port), the
 * ConfigMap's {@code application.yml} with each pod's environment starts a context whose
 * sets count, and {@code prometheus-rule.yaml} is the mixin of {@code monitoring/} as
 * generated here, whose rules {@code promtool check rules} accepts.
 *
 * @author rdma-counters
 */
class KubernetesExampleTests {

	private static final String WRITE = "rdma.kubernetes.write";

	private static final Path ROOT = root();

	private static final Path KUBERNETES = ROOT.resolve("docs/kubernetes");

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

	@Test
	void everyManifestHasAKnownKindANameAndNoTabs() throws IOException {
		List<Map<String, Object>> documents = documents();
		assertThat(documents).extracting((document) -> document.get("kind"))
			.containsExactlyInAnyOrder("ConfigMap", "Deployment", "NetworkAttachmentDefinition", "Pod", "PodMonitor",
					"PrometheusRule");
		for (Map<String, Object> document : documents) {
			assertThat(document.get("apiVersion")).as("apiVersion of %s", document.get("kind"))
				.isIn("v1", "apps/v1", "k8s.cni.cncf.io/v1", "monitoring.coreos.com/v1");
			assertThat(map(document, "metadata").get("name")).as("name of %s", document.get("kind"))
				.asString()
				.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
		}
	}

	@Test
	void podsAskForAnRdmaDeviceAndOnlyTheCapabilitiesTheirConfigurationNeeds() throws IOException {
		String application = application();
		List<Map<String, Object>> pods = podSpecs();
		assertThat(pods).hasSize(2);
		for (Map<String, Object> pod : pods) {
			Map<String, Object> container = container(pod);
			Map<String, Object> limits = map(map(container, "resources"), "limits");
			assertThat(limits.keySet()).as("an RDMA device resource")
				.anyMatch(
						(name) -> name.equals("rdma/hca_shared_devices_a") || name.equals("nvidia.com/sriov_rdma_vf"));
			assertThat(map(map(container, "resources"), "requests")).isEqualTo(limits);
			Map<String, Object> capabilities = map(map(container, "securityContext"), "capabilities");
			assertThat(list(capabilities, "drop")).containsExactly("ALL");
			List<Object> added = list(capabilities, "add");
			if (application.contains("counter-sets:")) {
				assertThat(added).as("flows need the raw packet queue pair").contains("NET_RAW");
			}
			if (!application.contains("optional-counters")) {
				assertThat(added).as("NET_ADMIN only where optional counters are enabled").doesNotContain("NET_ADMIN");
			}
			assertThat(added).isSubsetOf("NET_RAW", "NET_ADMIN");
			assertThat(map(container, "securityContext")).containsEntry("allowPrivilegeEscalation", false);
		}
	}

	@Test
	void probesAndThePodMonitorUseTheManagementPortAndPathsTheConfigurationServes() throws IOException {
		String application = application();
		assertThat(application).contains("port: 8081", "include: health,rdma,prometheus", "probes:",
				"include: readinessState,rdma");
		Map<String, Object> podMonitor = kind("PodMonitor");
		Map<String, Object> endpoint = map(list(map(podMonitor, "spec"), "podMetricsEndpoints"), 0);
		assertThat(endpoint).containsEntry("port", "management").containsEntry("path", "/actuator/prometheus");
		Map<String, Object> selector = map(map(map(podMonitor, "spec"), "selector"), "matchLabels");
		for (Map<String, Object> pod : podSpecs()) {
			Map<String, Object> container = container(pod);
			assertThat(list(container, "ports")).contains(Map.of("name", "management", "containerPort", 8081));
			assertThat(map(map(container, "readinessProbe"), "httpGet"))
				.containsEntry("path", "/actuator/health/readiness")
				.containsEntry("port", "management");
			assertThat(map(map(container, "livenessProbe"), "httpGet"))
				.containsEntry("path", "/actuator/health/liveness")
				.containsEntry("port", "management");
			assertThat(labels(pod)).as("labels the PodMonitor selects").containsAllEntriesOf(selector);
			assertThat(environment(container)).containsEntry("SPRING_CONFIG_ADDITIONAL_LOCATION", "file:/config/");
			assertThat(list(container, "volumeMounts"))
				.contains(Map.of("name", "config", "mountPath", "/config", "readOnly", true));
			assertThat(list(pod, "volumes")).contains(Map.of("name", "config", "configMap",
					Map.of("name", map(kind("ConfigMap"), "metadata").get("name"))));
		}
	}

	@Test
	void sriovPodNamesTheNetworkWhoseResourceItRequests() throws IOException {
		Map<String, Object> pod = kind("Pod");
		Map<String, Object> network = kind("NetworkAttachmentDefinition");
		assertThat(map(map(pod, "metadata"), "annotations")).containsEntry("k8s.v1.cni.cncf.io/networks",
				map(network, "metadata").get("name"));
		Object resource = map(map(network, "metadata"), "annotations").get("k8s.v1.cni.cncf.io/resourceName");
		assertThat(map(map(container(map(pod, "spec")), "resources"), "limits")).containsKey((String) resource);
		Map<String, Object> cni = yaml().load((String) map(network, "spec").get("config"));
		List<String> types = list(cni, "plugins").stream()
			.map((plugin) -> String.valueOf(((Map<?, ?>) plugin).get("type")))
			.toList();
		assertThat(types).containsExactly("sriov", "rdma");
	}

	@Test
	void configurationWithEachPodsEnvironmentStartsAContextWhoseSetsCount(@TempDir Path temp) throws IOException {
		String application = application();
		HostSysfs host = FakeDeviceSets.sysfs(temp);
		for (Map<String, Object> pod : podSpecs()) {
			Map<String, Object> rdmaEnvironment = new LinkedHashMap<>(environment(container(pod)));
			rdmaEnvironment.keySet().removeIf((name) -> !name.startsWith("RDMA_"));
			List<PropertySource<?>> sources = new YamlPropertySourceLoader().load("application.yml",
					new ByteArrayResource(application.getBytes(StandardCharsets.UTF_8)));
			new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RdmaAutoConfiguration.class))
				.withPropertyValues("rdma.native.library=" + this.fake.libraryPath(),
						"rdma.port-counters.sysfs-root=" + host.root())
				.withInitializer((context) -> {
					sources.forEach((source) -> context.getEnvironment().getPropertySources().addFirst(source));
					context.getEnvironment()
						.getPropertySources()
						.addFirst(new SystemEnvironmentPropertySource("pod-systemEnvironment", rdmaEnvironment));
				})
				.run((context) -> {
					assertThat(context).as("context with %s", rdmaEnvironment).hasNotFailed();
					RdmaRegistry registry = context.getBean(RdmaRegistry.class);
					assertThat(registry.devices()).allMatch(ManagedDevice::isAvailable);
					assertThat(registry.counterSet("storage").deviceName()).isEqualTo("mlx5_0");
					assertThat(registry.counterSet("storage").read().isSuccess()).isTrue();
				});
		}
	}

	@Test
	void prometheusRuleIsTheMixinAsGenerated() throws IOException {
		Path file = KUBERNETES.resolve("prometheus-rule.yaml");
		String generated = prometheusRule();
		if (Boolean.getBoolean(WRITE)) {
			Files.writeString(file, generated);
		}
		assertThat(file).as("docs/kubernetes/prometheus-rule.yaml; regenerate it with -D%s=true", WRITE)
			.content(StandardCharsets.UTF_8)
			.isEqualTo(generated);
		List<Object> groups = new ArrayList<>();
		for (String source : List.of("rdma-rules.yml", "rdma-alerts.yml")) {
			Map<String, Object> mixin = yaml().load(Files.readString(ROOT.resolve("monitoring").resolve(source)));
			groups.addAll(list(mixin, "groups"));
		}
		assertThat(list(map(kind("PrometheusRule"), "spec"), "groups")).isEqualTo(groups);
	}

	@Test
	void promtoolAcceptsTheRulesInsideThePrometheusRule(@TempDir Path temp) throws Exception {
		Path promtool = Path.of("/usr/bin/promtool");
		if (!Files.isExecutable(promtool)) {
			fail(promtool + " is missing: install it with `apt-get install -y prometheus` (Debian and Ubuntu)");
		}
		Path rules = temp.resolve("rules.yml");
		Files.writeString(rules, yaml().dump(map(kind("PrometheusRule"), "spec")));
		Process process = new ProcessBuilder(promtool.toString(), "check", "rules", rules.toString())
			.redirectErrorStream(true)
			.start();
		assertThat(process.waitFor(1, TimeUnit.MINUTES)).as("promtool finished").isTrue();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.exitValue()).as(output).isZero();
		// every recording rule and alert of the mixin, none lost in the generation
		long mixinRules = 0;
		for (String file : List.of("rdma-rules.yml", "rdma-alerts.yml")) {
			mixinRules += Files.readAllLines(ROOT.resolve("monitoring").resolve(file))
				.stream()
				.filter((line) -> line.matches("\\s*- (record|alert):.*"))
				.count();
		}
		assertThat(mixinRules).isGreaterThan(30);
		assertThat(output).contains("SUCCESS: " + mixinRules + " rules found");
	}

	/**
	 * The PrometheusRule of the mixin: the groups of {@code monitoring/rdma-rules.yml}
	 * and {@code rdma-alerts.yml}, with their comments, under {@code spec.groups}.
	 * @return the manifest's text
	 * @throws IOException if the mixin cannot be read
	 */
	static String prometheusRule() throws IOException {
		StringBuilder manifest = new StringBuilder();
		manifest.append("# Generated from monitoring/rdma-rules.yml and monitoring/rdma-alerts.yml by\n")
			.append("# KubernetesExampleTests (-D" + WRITE + "=true rewrites it): do not edit by hand.\n")
			.append("# Add the labels your Prometheus Operator's ruleSelector asks for.\n")
			.append("apiVersion: monitoring.coreos.com/v1\n")
			.append("kind: PrometheusRule\n")
			.append("metadata:\n")
			.append("  name: rdma-counters\n")
			.append("  labels:\n")
			.append("    app.kubernetes.io/name: rdma-counters\n")
			.append("spec:\n")
			.append("  groups:\n");
		for (String source : List.of("rdma-rules.yml", "rdma-alerts.yml")) {
			String mixin = Files.readString(ROOT.resolve("monitoring").resolve(source), StandardCharsets.UTF_8);
			int groups = mixin.indexOf("\ngroups:\n");
			assertThat(groups).as("the groups of monitoring/%s", source).isNotNegative();
			mixin.substring(groups + "\ngroups:\n".length())
				.lines()
				.forEach((line) -> manifest.append(line.isEmpty() ? "" : "  ").append(line).append('\n'));
		}
		return manifest.toString();
	}

	private static String application() throws IOException {
		return (String) map(kind("ConfigMap"), "data").get("application.yml");
	}

	private static List<Map<String, Object>> podSpecs() throws IOException {
		List<Map<String, Object>> pods = new ArrayList<>();
		for (Map<String, Object> document : documents()) {
			if ("Pod".equals(document.get("kind"))) {
				pods.add(withLabels(map(document, "spec"), map(map(document, "metadata"), "labels")));
			}
			else if ("Deployment".equals(document.get("kind"))) {
				Map<String, Object> template = map(map(document, "spec"), "template");
				pods.add(withLabels(map(template, "spec"), map(map(template, "metadata"), "labels")));
			}
		}
		return pods;
	}

	private static Map<String, Object> withLabels(Map<String, Object> spec, Map<String, Object> labels) {
		Map<String, Object> pod = new LinkedHashMap<>(spec);
		pod.put("(labels)", labels);
		return pod;
	}

	private static Map<String, Object> labels(Map<String, Object> pod) {
		return map(pod, "(labels)");
	}

	private static Map<String, Object> container(Map<String, Object> pod) {
		List<Object> containers = list(pod, "containers");
		assertThat(containers).hasSize(1);
		return map(containers, 0);
	}

	private static Map<String, Object> environment(Map<String, Object> container) {
		Map<String, Object> environment = new LinkedHashMap<>();
		for (Object variable : list(container, "env")) {
			environment.put((String) ((Map<?, ?>) variable).get("name"), ((Map<?, ?>) variable).get("value"));
		}
		return environment;
	}

	private static Map<String, Object> kind(String kind) throws IOException {
		return documents().stream()
			.filter((document) -> kind.equals(document.get("kind")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + kind + " in docs/kubernetes"));
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> documents() throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Stream<Path> files = Files.list(KUBERNETES)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".yaml")).sorted().toList()) {
				String text = Files.readString(file, StandardCharsets.UTF_8);
				assertThat(text).as("%s has no tabs", file.getFileName()).doesNotContain("\t");
				for (Object document : yaml().loadAll(text)) {
					assertThat(document).as("a document of %s", file.getFileName()).isInstanceOf(Map.class);
					documents.add((Map<String, Object>) document);
				}
			}
		}
		return documents;
	}

	private static Yaml yaml() {
		return new Yaml(new SafeConstructor(new LoaderOptions()));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Map<String, Object> map, String key) {
		Object value = map.get(key);
		assertThat(value).as("'%s' in %s", key, map.keySet()).isInstanceOf(Map.class);
		return (Map<String, Object>) value;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(List<Object> list, int index) {
		assertThat(list).hasSizeGreaterThan(index);
		assertThat(list.get(index)).isInstanceOf(Map.class);
		return (Map<String, Object>) list.get(index);
	}

	@SuppressWarnings("unchecked")
	private static List<Object> list(Map<String, Object> map, String key) {
		Object value = map.get(key);
		assertThat(value).as("'%s' in %s", key, map.keySet()).isInstanceOf(List.class);
		return (List<Object>) value;
	}

	private static Path root() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.isDirectory(dir.resolve("docs/kubernetes")) && Files.isDirectory(dir.resolve("monitoring"))) {
				return dir;
			}
		}
		throw new IllegalStateException("Run from inside the rdma-counters repository: no docs/kubernetes above "
				+ Path.of("").toAbsolutePath());
	}

}
