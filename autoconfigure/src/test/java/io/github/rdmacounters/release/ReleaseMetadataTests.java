package io.github.rdmacounters.release;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests the project's release metadata as written in the POMs: the BOM names every
 * published module at the project version, and the coordinates a repository requires
 * (licence, URL, SCM, developers) are the project's own, with the licence text beside
 * them.
 *
 * @author rdma-counters
 */
class ReleaseMetadataTests {

	private static final String GROUP = "io.github.rdmacounters";

	private final Path root = repositoryRoot();

	@Test
	void bomListsEveryPublishedModuleAtTheProjectVersion() throws Exception {
		Element parent = pom(this.root.resolve("pom.xml"));
		String version = child(parent, "version");
		Map<String, String> published = new LinkedHashMap<>();
		for (Element module : children(element(parent, "modules"), "module")) {
			Element pom = pom(this.root.resolve(module.getTextContent().trim()).resolve("pom.xml"));
			String artifactId = child(pom, "artifactId");
			if (!artifactId.equals("rdma-counters-bom") && isPublished(pom)) {
				published.put(artifactId, version);
			}
		}
		assertThat(published).containsOnlyKeys("rdma-counters-core", "rdma-counters-diagnosis",
				"rdma-counters-spring-boot", "rdma-counters-spring-boot-starter");

		Element bom = pom(this.root.resolve("bom/pom.xml"));
		assertThat(child(bom, "version")).as("the BOM's version").isEqualTo(version);
		assertThat(bom.getElementsByTagName("parent").getLength())
			.as("a BOM with a parent would pin its parent's managed versions in the user's build")
			.isZero();
		Map<String, String> listed = new LinkedHashMap<>();
		for (Element dependency : children(element(element(bom, "dependencyManagement"), "dependencies"),
				"dependency")) {
			assertThat(child(dependency, "groupId")).isEqualTo(GROUP);
			listed.put(child(dependency, "artifactId"), child(dependency, "version"));
		}
		assertThat(listed).isEqualTo(published);
	}

	@Test
	void publishedPomsCarryTheProjectsOwnLicenceUrlScmAndDevelopers() throws Exception {
		for (String pom : List.of("pom.xml", "bom/pom.xml")) {
			Element project = pom(this.root.resolve(pom));
			assertThat(child(element(element(project, "licenses"), "license"), "name")).as(pom)
				.isEqualTo("Apache License, Version 2.0");
			assertThat(child(project, "url")).as(pom).isEqualTo("https://github.com/rdmacounters/rdma-counters");
			assertThat(child(element(project, "scm"), "url")).as(pom)
				.isEqualTo("https://github.com/rdmacounters/rdma-counters");
			assertThat(child(element(element(project, "developers"), "developer"), "name")).as(pom).isNotBlank();
			assertThat(child(project, "description")).as(pom).isNotBlank();
			assertThat(child(element(project, "properties"), "project.build.outputTimestamp")).as(pom)
				.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
		}
		assertThat(this.root.resolve("LICENSE")).content().contains("Apache License", "Version 2.0, January 2004");
		assertThat(this.root.resolve("NOTICE")).content().contains("Apache License, Version 2.0");
	}

	private static boolean isPublished(Element pom) {
		String packaging = child(pom, "packaging", "jar");
		List<Element> properties = children(pom, "properties");
		boolean skipped = !properties.isEmpty()
				&& "true".equals(child(properties.get(0), "maven.deploy.skip", "false"));
		return !skipped && (packaging.equals("jar") || packaging.equals("pom"));
	}

	private static Element pom(Path file) throws Exception {
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
		Document document = factory.newDocumentBuilder().parse(file.toFile());
		return document.getDocumentElement();
	}

	private static String child(Element element, String name) {
		String value = child(element, name, null);
		assertThat(value).as("<%s> of <%s>", name, element.getTagName()).isNotNull();
		return value;
	}

	private static String child(Element element, String name, String orElse) {
		List<Element> found = children(element, name);
		return found.isEmpty() ? orElse : found.get(0).getTextContent().trim();
	}

	private static Element element(Element element, String name) {
		List<Element> found = children(element, name);
		assertThat(found).as("<%s> of <%s>", name, element.getTagName()).isNotEmpty();
		return found.get(0);
	}

	private static List<Element> children(Element element, String name) {
		List<Element> result = new ArrayList<>();
		NodeList nodes = element.getChildNodes();
		for (int i = 0; i < nodes.getLength(); i++) {
			Node node = nodes.item(i);
			if (node instanceof Element child && child.getTagName().equals(name)) {
				result.add(child);
			}
		}
		return result;
	}

	private static Path repositoryRoot() {
		for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
			if (Files.exists(dir.resolve("bom/pom.xml")) && Files.exists(dir.resolve("autoconfigure"))) {
				return dir;
			}
		}
		throw new IllegalStateException(
				"Run from inside the rdma-counters repository: no bom/pom.xml above " + Path.of("").toAbsolutePath());
	}

}
