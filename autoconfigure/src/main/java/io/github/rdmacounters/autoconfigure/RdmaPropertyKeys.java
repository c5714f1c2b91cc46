package io.github.rdmacounters.autoconfigure;

import java.beans.PropertyDescriptor;
import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.Name;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.ResolvableType;
import org.springframework.util.StringUtils;

import io.github.rdmacounters.core.NameFilter;

/**
 * The keys of the {@code rdma} properties, read off the property types (record
 * components, JavaBean properties, map values) as Boot's binder reads them, never listed
 * by hand.
 *
 * @author rdma-counters
 */
final class RdmaPropertyKeys {

	private static final Map<Class<?>, Map<String, ResolvableType>> KEYS = new ConcurrentHashMap<>();

	private RdmaPropertyKeys() {
	}

	/**
	 * Return the keys of a group, dashed, each with its type.
	 * @param type a record or JavaBean of the properties
	 * @return the keys in declaration order; none for a single value
	 */
	static Map<String, ResolvableType> of(ResolvableType type) {
		Class<?> raw = type.resolve(Object.class);
		return isGroup(raw) ? KEYS.computeIfAbsent(raw, RdmaPropertyKeys::read) : Map.of();
	}

	/**
	 * The keys of a group, read once: reflection on a record is not cached by the JVM.
	 */
	private static Map<String, ResolvableType> read(Class<?> raw) {
		Map<String, ResolvableType> keys = new LinkedHashMap<>();
		if (raw.isRecord()) {
			RecordComponent[] components = raw.getRecordComponents();
			Parameter[] parameters = canonical(raw).getParameters();
			for (int i = 0; i < components.length; i++) {
				Name name = parameters[i].getAnnotation(Name.class);
				String key = (name != null) ? name.value() : components[i].getName();
				keys.put(DataObjectPropertyName.toDashedForm(key),
						ResolvableType.forMethodReturnType(components[i].getAccessor(), raw));
			}
			return Collections.unmodifiableMap(keys);
		}
		for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(raw)) {
			if (property.getWriteMethod() != null && property.getReadMethod() != null) {
				keys.put(DataObjectPropertyName.toDashedForm(property.getName()),
						ResolvableType.forMethodReturnType(property.getReadMethod(), raw));
			}
		}
		return Collections.unmodifiableMap(keys);
	}

	/**
	 * Return the keys of a group.
	 * @param type a record or JavaBean of the properties
	 * @return the dashed keys, e.g. {@code include, exclude}
	 */
	static List<String> names(@Nullable Class<?> type) {
		return (type != null) ? List.copyOf(of(ResolvableType.forClass(type)).keySet()) : List.of();
	}

	/**
	 * Find the first element of a name under {@code rdma} that no property type has.
	 * @param name the name, e.g. {@code rdma.devices.mlx5_0.fail-on-unavailabel}
	 * @return what is wrong, or {@code null} when every element is a key
	 */
	static @Nullable Unknown unknown(ConfigurationPropertyName name) {
		ResolvableType type = ResolvableType.forClass(RdmaProperties.class);
		for (int i = 1; i < name.getNumberOfElements(); i++) {
			Class<?> raw = type.resolve(Object.class);
			if (Map.class.isAssignableFrom(raw)) {
				type = type.asMap().getGeneric(1);
				continue;
			}
			if (List.class.isAssignableFrom(raw) && isNumber(name, i)) {
				type = type.asCollection().getGeneric(0);
				continue;
			}
			Map<String, ResolvableType> keys = of(type);
			if (keys.isEmpty()) {
				return new Unknown(i, List.of(), null, false);
			}
			String element = name.getElement(i, Form.DASHED);
			ResolvableType next = key(keys, name.getElement(i, Form.UNIFORM));
			if (next == null) {
				List<String> known = List.copyOf(keys.keySet());
				return new Unknown(i, known, isNumber(name, i) ? null : closest(element, known), isNumber(name, i));
			}
			type = next;
		}
		return null;
	}

	/**
	 * Return whether a property under {@code rdma} holds a whole number.
	 * @param name the name, e.g. {@code rdma.counter-sets.x.port}
	 * @return {@code true} for an {@code int}, {@code long} or their boxes
	 */
	static boolean isWholeNumber(ConfigurationPropertyName name) {
		ResolvableType type = typeOf(name);
		Class<?> raw = (type != null) ? type.resolve() : null;
		return raw == Integer.class || raw == int.class || raw == Long.class || raw == long.class;
	}

	/**
	 * Return the type of a property under {@code rdma}.
	 * @param name the name, e.g. {@code rdma.backend}
	 * @return its type, or {@code null} when it is no property
	 */
	static @Nullable ResolvableType typeOf(ConfigurationPropertyName name) {
		ResolvableType type = ResolvableType.forClass(RdmaProperties.class);
		for (int i = 1; i < name.getNumberOfElements() && type != null; i++) {
			Class<?> raw = type.resolve(Object.class);
			type = Map.class.isAssignableFrom(raw) ? type.asMap().getGeneric(1) : List.class.isAssignableFrom(raw)
					? type.asCollection().getGeneric(0) : key(of(type), name.getElement(i, Form.UNIFORM));
		}
		return type;
	}

	/**
	 * The type of a key in the uniform form of Boot's relaxed names, e.g.
	 * {@code countersets}.
	 */
	private static @Nullable ResolvableType key(Map<String, ResolvableType> keys, String uniform) {
		for (Map.Entry<String, ResolvableType> key : keys.entrySet()) {
			if (key.getKey().replace("-", "").equals(uniform)) {
				return key.getValue();
			}
		}
		return null;
	}

	/** Whether an element is a list index, also one of an environment variable. */
	private static boolean isNumber(ConfigurationPropertyName name, int i) {
		String element = name.getElement(i, Form.UNIFORM);
		return name.isNumericIndex(i) || (!element.isEmpty() && element.chars().allMatch(Character::isDigit));
	}

	/** The closest key, at most two edits away, as Spring's property matches take it. */
	static @Nullable String closest(String key, List<String> keys) {
		String best = null;
		int distance = 3;
		for (String candidate : keys) {
			int d = NameFilter.distance(key, candidate);
			if (d < distance) {
				best = candidate;
				distance = d;
			}
		}
		return best;
	}

	private static boolean isGroup(Class<?> type) {
		return !type.isEnum() && type.getPackageName().startsWith(RdmaPropertyKeys.class.getPackageName());
	}

	private static Constructor<?> canonical(Class<?> record) {
		Class<?>[] types = Arrays.stream(record.getRecordComponents())
			.map(RecordComponent::getType)
			.toArray(Class<?>[]::new);
		try {
			return record.getDeclaredConstructor(types);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException("A record has its canonical constructor", ex);
		}
	}

	/**
	 * The first element of a name that no property type has.
	 *
	 * @param index the element's index in the name
	 * @param keys the keys allowed there; none when the name goes on below a single value
	 * @param closest the allowed key closest to the element, if any
	 * @param listItem whether the element is a list index where a group of keys is
	 */
	record Unknown(int index, List<String> keys, @Nullable String closest, boolean listItem) {

		/** The keys as a sentence part, e.g. {@code enabled, counters}. */
		String allowed() {
			return StringUtils.collectionToDelimitedString(this.keys, ", ");
		}

	}

}
