import ComposeEmitters
import ComposeRefs
import ComposeStore
import ComposeTestSupport
import Testing

// SpecimenModel.swift
struct SpecimenModel: Codable, Equatable, Identifiable, Sendable {
    var id: String
    var name: String

    init(id: String, _ name: String) {
        self.id = id
        self.name = name
    }
}

// Specimen.swift / Specimen+State.swift
struct SpecimenComponent {
    @Store var state: State

    init(specimen: Referred<SpecimenModel>) {
        state.$specimen = specimen
    }

    struct State: AnyState {
        @Ref var specimen: SpecimenModel
    }
}

/// The "Identified References via @Ref and @RefCollection" examples of Compose's README, run as
/// written (the views replaced by what their text fields do), with two and with many
/// components.
///
/// In a sandbox per test: the example's states declare fixed ids, and two tests running at once
/// would otherwise share those entities (which is the point of refs).
@Suite(.composeSandbox) struct SeedExampleTests {
    // Exhibition.swift / Exhibition+State.swift
    struct ExhibitionComponent {
        let specimenA: SpecimenComponent
        let specimenB: SpecimenComponent

        @Store var state: State

        init() {
            // As written, `state.$specimen` does not compile here: `state` is a computed property
            // of `self`, readable only once every stored property is set. The wrapper's storage,
            // `_state`, is set already.
            self.specimenA = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
            self.specimenB = SpecimenComponent(specimen: _state.wrappedValue.$specimen)
        }

        struct State: AnyState {
            @Ref var specimen = SpecimenModel(id: "MY-MODEL-ID", "Funny Circle")
        }
    }

    @Test func childrenShareTheParentsSpecimen() {
        let exhibition = ExhibitionComponent()
        #expect(exhibition.specimenA.state.specimen.name == "Funny Circle")

        // `TextField("Name", text: $state.binding.specimen.name)` in specimen A:
        exhibition.specimenA.$state.binding.specimen.name.wrappedValue = "Sad Square"

        // Every other store reads the new value at once: no debounce.
        #expect(exhibition.state.specimen.name == "Sad Square")
        #expect(exhibition.specimenB.state.specimen.name == "Sad Square")
    }

    @Test func everyStoreHoldingTheRefNotifiesItsObservers() {
        let exhibition = ExhibitionComponent()
        let parent = Recorder<String>()
        let childB = Recorder<String>()
        let willChange = Recorder<String>()
        exhibition.$state.observe(\.specimen.name) { parent.record($0) }
        exhibition.specimenB.$state.observe(\.specimen.name) { childB.record($0) }
        exhibition.$state.willChange += { willChange.record($0.specimen.name) }

        exhibition.specimenA.state.specimen.name = "Sad Square"
        exhibition.specimenA.state.specimen.name = "Sad Square"  // equal: nobody hears it
        exhibition.specimenB.state.specimen = SpecimenModel(id: "MY-MODEL-ID", "Heavy Box")

        #expect(parent.values == ["Sad Square", "Heavy Box"])
        #expect(childB.values == ["Sad Square", "Heavy Box"])
        #expect(willChange.values == ["Sad Square", "Heavy Box"])
    }

    @Test func manyComponentsStayInSync() {
        let exhibition = ExhibitionComponent()
        let children = (0..<200).map { _ in SpecimenComponent(specimen: exhibition.state.$specimen) }
        let heard = Recorder<Int>()
        for (index, child) in children.enumerated() {
            child.$state.observe(\.specimen.name) { _ in heard.record(index) }
        }
        for (index, child) in children.enumerated() where index.isMultiple(of: 40) {
            child.state.specimen.name = "Name \(index)"
            #expect(children.allSatisfy { $0.state.specimen.name == "Name \(index)" })
            #expect(exhibition.state.specimen.name == "Name \(index)")
        }
        #expect(heard.count == 200 * 5)  // every child heard each of the five writes once
    }

    // The @RefCollection variant.
    struct CollectionExhibitionComponent {
        let specimenA: SpecimenComponent
        let specimenB: SpecimenComponent

        @Store var state: State

        init() {
            self.specimenA = SpecimenComponent(specimen: _state.wrappedValue.$specimens[0])
            self.specimenB = SpecimenComponent(specimen: _state.wrappedValue.$specimens[1])
        }

        struct State: AnyState {
            @RefCollection var specimens = [
                SpecimenModel(id: "MY-MODEL-ID-FIRST", "Funny Circle"),
                SpecimenModel(id: "MY-MODEL-ID-SECOND", "Heavy Box"),
            ]
        }
    }

    @Test func updatingOneSpecimenLeavesTheOtherBe() {
        let exhibition = CollectionExhibitionComponent()
        let first = Recorder<String>()
        let second = Recorder<String>()
        exhibition.specimenA.$state.observe(\.specimen.name) { first.record($0) }
        exhibition.specimenB.$state.observe(\.specimen.name) { second.record($0) }

        exhibition.specimenA.state.specimen.name = "Sad Square"

        #expect(exhibition.state.specimens.map(\.name) == ["Sad Square", "Heavy Box"])
        #expect(first.values == ["Sad Square"])
        #expect(second.values == [])

        // And the other way: the parent writes the second element.
        exhibition.state.specimens[1].name = "Light Box"
        #expect(exhibition.specimenB.state.specimen.name == "Light Box")
        #expect(second.values == ["Light Box"])
        #expect(first.values == ["Sad Square"])
    }

    @Test func collectionsWithManyChildren() {
        let exhibition = CollectionExhibitionComponent()
        exhibition.state.specimens = (0..<100).map { SpecimenModel(id: "MY-MODEL-ID-\($0)", "Specimen \($0)") }
        let children = exhibition.state.$specimens.map { SpecimenComponent(specimen: $0) }
        for (index, child) in children.enumerated() {
            child.state.specimen.name = "Renamed \(index)"
        }
        #expect(exhibition.state.specimens.map(\.name) == (0..<100).map { "Renamed \($0)" })
    }
}
