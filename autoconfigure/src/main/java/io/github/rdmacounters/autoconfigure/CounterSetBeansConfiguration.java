package io.github.rdmacounters.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.context.annotation.Import;
import org.springframework.core.annotation.MergedAnnotation.Adapt;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.core.type.MethodMetadata;
import org.springframework.core.type.classreading.CachingMetadataReaderFactory;
import org.springframework.core.type.classreading.MetadataReaderFactory;

import io.github.rdmacounters.core.RdmaRegistry;

/**
 * Imports the {@link CountersBeanRegistrar} unless the application defines its own
 * {@link RdmaRegistry}. Like every condition, decided at build time under Spring AOT.
 *
 * @author rdma-counters
 */
@Configuration(proxyBeanMethods = false)
@Conditional(CounterSetBeansConfiguration.NoOwnRegistryCondition.class)
@Import(CountersBeanRegistrar.class)
class CounterSetBeansConfiguration {

	/**
	 * Matches when no {@link RdmaRegistry} is defined yet, and refuses a set named like a
	 * bean defined so far or like a bean of the starter's auto-configurations, which are
	 * registered after the sets' beans.
	 */
	static class NoOwnRegistryCondition implements ConfigurationCondition {

		private static final Log logger = LogFactory.getLog(CounterSetBeansConfiguration.class);

		private static final String STARTER_PACKAGE = "io.github.rdmacounters.";

		/**
		 * The bean of Spring Boot's SharedMetadataReaderFactoryContextInitializer (not
		 * public): the class file reader of the configuration class parser.
		 */
		private static final String SHARED_READERS = "org.springframework.boot.autoconfigure.internalCachingMetadataReaderFactory";

		@Override
		public ConfigurationPhase getConfigurationPhase() {
			return ConfigurationPhase.REGISTER_BEAN;
		}

		@Override
		public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
			ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
			if (beanFactory == null) {
				return true;
			}
			RdmaPropertyScan scan = RdmaPropertyScan.of(context.getEnvironment());
			Set<String> sets = CountersBeanRegistrar.setNames(scan, context.getEnvironment());
			if (beanFactory.getBeanNamesForType(RdmaRegistry.class, true, false).length > 0) {
				if (!sets.isEmpty()) {
					logger.info("Not registering Counters beans for " + CountersBeanRegistrar.COUNTER_SETS + " " + sets
							+ ": the application defines its own RdmaRegistry");
				}
				return false;
			}
			if (!sets.isEmpty()) {
				checkFree(context, sets);
			}
			// one pass over the property sources for the registrar and the checks too
			RdmaPropertyScan.handOver(context.getEnvironment(), scan);
			return true;
		}

		private static void checkFree(ConditionContext context, Set<String> sets) {
			BeanDefinitionRegistry registry = context.getRegistry();
			ClassLoader classLoader = context.getClassLoader();
			Map<String, String> starterBeans = starterBeans(readers(context.getBeanFactory(), classLoader),
					classLoader);
			for (String set : sets) {
				if (registry.containsBeanDefinition(set)) {
					throw CountersBeanRegistrar.nameTaken(set,
							CountersBeanRegistrar.describe(registry.getBeanDefinition(set)));
				}
				if (registry.isAlias(set)) {
					throw CountersBeanRegistrar.nameTaken(set, "an alias");
				}
				if (starterBeans.containsKey(set)) {
					throw CountersBeanRegistrar.nameTaken(set, starterBeans.get(set));
				}
			}
		}

		/**
		 * Return the reader of class files that Spring Boot shares with the parser of the
		 * configuration classes, so that the starter's class files are read once on a
		 * start, else one of this check's own.
		 */
		private static MetadataReaderFactory readers(@Nullable ConfigurableListableBeanFactory beanFactory,
				@Nullable ClassLoader classLoader) {
			if (beanFactory != null && beanFactory.containsBean(SHARED_READERS)
					&& beanFactory.isTypeMatch(SHARED_READERS, MetadataReaderFactory.class)) {
				return beanFactory.getBean(SHARED_READERS, MetadataReaderFactory.class);
			}
			return new CachingMetadataReaderFactory(classLoader);
		}

		/**
		 * Return the names of the beans of the starter's auto-configurations (their
		 * {@code @Bean} methods, those of their member and imported classes), read from
		 * the class files: a class with an absent optional dependency is never loaded.
		 */
		private static Map<String, String> starterBeans(MetadataReaderFactory readers,
				@Nullable ClassLoader classLoader) {
			Map<String, String> beans = new LinkedHashMap<>();
			Set<String> seen = new HashSet<>();
			for (String candidate : ImportCandidates.load(AutoConfiguration.class, classLoader)) {
				if (candidate.startsWith(STARTER_PACKAGE)) {
					collect(readers, candidate, seen, beans);
				}
			}
			return beans;
		}

		private static void collect(MetadataReaderFactory readers, String type, Set<String> seen,
				Map<String, String> beans) {
			if (!type.startsWith(STARTER_PACKAGE) || !seen.add(type)) {
				return;
			}
			AnnotationMetadata metadata;
			try {
				metadata = readers.getMetadataReader(type).getAnnotationMetadata();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			for (MethodMetadata method : metadata.getAnnotatedMethods(Bean.class.getName())) {
				String[] names = method.getAnnotations().get(Bean.class).getStringArray("name");
				for (String name : (names.length > 0) ? List.of(names) : List.of(method.getMethodName())) {
					beans.putIfAbsent(name, "factory method " + method.getMethodName() + " of " + type);
				}
			}
			for (String member : metadata.getMemberClassNames()) {
				collect(readers, member, seen, beans);
			}
			metadata.getAnnotations()
				.stream(Import.class)
				.map((annotation) -> annotation.asAnnotationAttributes(Adapt.CLASS_TO_STRING))
				.forEach((attributes) -> {
					for (String imported : (String[]) attributes.get("value")) {
						collect(readers, imported, seen, beans);
					}
				});
		}

	}

}
