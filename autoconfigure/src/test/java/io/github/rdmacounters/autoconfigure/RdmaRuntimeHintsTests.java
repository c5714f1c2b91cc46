package io.github.rdmacounters.autoconfigure;

import java.util.List;
import java.util.Objects;

import com.sun.jna.Library;
import com.sun.jna.PointerType;
import com.sun.jna.Structure;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.core.type.filter.AssignableTypeFilter;
import org.springframework.util.ClassUtils;

import io.github.rdmacounters.autoconfigure.event.RdmaEventsProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link RdmaRuntimeHints}: every JNA structure, handle and library interface of
 * the starter, found by scanning its packages, has its hints; and Boot's own hints cover
 * the records it binds.
 *
 * @author rdma-counters
 */
class RdmaRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	RdmaRuntimeHintsTests() {
		new RdmaRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@Test
	void registrarIsListedInAotFactories() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).anyMatch(RdmaRuntimeHints.class::isInstance);
	}

	@Test
	void everyJnaStructureHasItsFieldsAndConstructor() {
		List<Class<?>> structures = subtypes(Structure.class);
		assertThat(structures).hasSizeGreaterThanOrEqualTo(3);
		assertThat(structures).allSatisfy((structure) -> assertThat(RuntimeHintsPredicates.reflection()
			.onType(structure)
			.withMemberCategories(MemberCategory.ACCESS_PUBLIC_FIELDS, MemberCategory.ACCESS_DECLARED_FIELDS,
					MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS))
			.as(structure.getName())
			.accepts(this.hints));
	}

	@Test
	void everyJnaHandleCanBeCreatedForAReturnedPointer() {
		List<Class<?>> handles = subtypes(PointerType.class);
		assertThat(handles).hasSizeGreaterThanOrEqualTo(7);
		assertThat(handles).allSatisfy((handle) -> assertThat(RuntimeHintsPredicates.reflection()
			.onType(handle)
			.withMemberCategory(MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS)).as(handle.getName()).accepts(this.hints));
	}

	@Test
	void everyJnaLibraryInterfaceIsAJdkProxy() {
		List<Class<?>> libraries = subtypes(Library.class);
		assertThat(libraries).hasSizeGreaterThanOrEqualTo(2);
		assertThat(libraries).allSatisfy((library) -> {
			assertThat(RuntimeHintsPredicates.proxies().forInterfaces(library)).as(library.getName())
				.accepts(this.hints);
			assertThat(RuntimeHintsPredicates.reflection()
				.onType(library)
				.withMemberCategory(MemberCategory.INTROSPECT_PUBLIC_METHODS)).as(library.getName())
				.accepts(this.hints);
		});
	}

	@Test
	void liveCountersPageIsAResource() {
		for (String file : List.of("index.html", "rdma-ui.js", "rdma-ui.css", "favicon.svg")) {
			assertThat(RuntimeHintsPredicates.resource().forResource("rdma-ui/" + file)).as(file).accepts(this.hints);
		}
	}

	@Test
	void bootsBindingHintsCoverTheRecordsOfTheProperties() {
		RuntimeHints boot = new RuntimeHints();
		BindableRuntimeHintsRegistrar.forTypes(RdmaProperties.class, RdmaEventsProperties.class).registerHints(boot);
		assertThat(RuntimeHintsPredicates.reflection().onType(RdmaProperties.class)).accepts(boot);
		assertThat(RuntimeHintsPredicates.reflection().onType(CounterSetProperties.class)).accepts(boot);
		assertThat(RuntimeHintsPredicates.reflection().onType(RdmaProperties.PortCounters.class)).accepts(boot);
		assertThat(RuntimeHintsPredicates.reflection().onType(RdmaEventsProperties.ReopenBackoff.class)).accepts(boot);
	}

	/** Not a test's class (core's test jar is on this module's test class path). */
	private static boolean isMainCode(Class<?> type) {
		String location = type.getProtectionDomain().getCodeSource().getLocation().toString();
		return !location.contains("test");
	}

	/**
	 * Classes and interfaces of the starter's packages that extend or implement the given
	 * JNA type.
	 */
	private static List<Class<?>> subtypes(Class<?> type) {
		ClassPathScanningCandidateComponentProvider scanner = new ClassPathScanningCandidateComponentProvider(false) {

			@Override
			protected boolean isCandidateComponent(AnnotatedBeanDefinition definition) {
				return true;
			}

		};
		scanner.addIncludeFilter(new AssignableTypeFilter(type));
		return scanner.findCandidateComponents("io.github.rdmacounters")
			.stream()
			.map(BeanDefinition::getBeanClassName)
			.map(Objects::requireNonNull)
			.<Class<?>>map((name) -> ClassUtils.resolveClassName(name, RdmaRuntimeHintsTests.class.getClassLoader()))
			.filter(RdmaRuntimeHintsTests::isMainCode)
			.toList();
	}

}
