package io.github.rdmacounters.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * {@link RuntimeHintsRegistrar} for what the starter reaches by reflection in a native
 * image: JNA reads and writes the public fields of its {@code Structure}s and creates the
 * typed handles it returns, each native library is a JDK proxy of its interface, and the
 * live page is served from {@code classpath:rdma-ui/}. The property classes and the
 * endpoint's descriptors get theirs from Boot (docs/aot.md).
 *
 * @author rdma-counters
 */
class RdmaRuntimeHints implements RuntimeHintsRegistrar {

	private static final String VERBS = "io.github.rdmacounters.verbs.";

	/** JNA {@code Structure} subclasses. */
	static final List<String> STRUCTURES = List.of(VERBS + "IbvDeviceAttr", VERBS + "IbvPortAttr",
			VERBS + "IbvQpInitAttr");

	/** JNA {@code PointerType} subclasses returned by native calls. */
	static final List<String> HANDLES = List
		.of("IbvDevice", "IbvContext", "IbvPd", "IbvCq", "IbvQp", "IbvCounters", "IbvFlow")
		.stream()
		.map((handle) -> VERBS + "IbvHandles$" + handle)
		.toList();

	/** JNA {@code Library} interfaces, loaded with {@code Native.load}. */
	static final List<String> LIBRARIES = List.of(VERBS + "IbvLibrary", "io.github.rdmacounters.libc.LibC");

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		for (String structure : STRUCTURES) {
			hints.reflection()
				.registerType(TypeReference.of(structure), MemberCategory.ACCESS_PUBLIC_FIELDS,
						MemberCategory.ACCESS_DECLARED_FIELDS, MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
		for (String handle : HANDLES) {
			hints.reflection().registerType(TypeReference.of(handle), MemberCategory.INVOKE_PUBLIC_CONSTRUCTORS);
		}
		for (String library : LIBRARIES) {
			hints.proxies().registerJdkProxy(TypeReference.of(library));
			hints.reflection().registerType(TypeReference.of(library), MemberCategory.INTROSPECT_PUBLIC_METHODS);
		}
		hints.resources().registerPattern("rdma-ui/*");
	}

}
